extension Subscribers {
    /// How many more values a subscriber wants: a count, or unlimited.
    ///
    /// Demand only grows through requests and shrinks as values are delivered; a publisher never sends more values
    /// than the total demand. Arithmetic saturates: adding to ``unlimited`` or overflowing gives ``unlimited``;
    /// subtracting never goes below ``none``; a negative count counts as zero.
    public struct Demand: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The count, with `UInt.max` standing for unlimited; finite counts never exceed `Int.max`.
        @usableFromInline let rawValue: UInt

        @inlinable
        init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// As many values as the publisher produces.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: .max) }

        /// No more values.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// At most `value` more values; a negative `value` means none.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            Demand(rawValue: UInt(Swift.max(value, 0)))
        }

        /// The count, or nil when the demand is unlimited.
        @inlinable
        public var max: Int? {
            rawValue == .max ? nil : Int(rawValue)
        }

        /// "unlimited", or "max(n)".
        public var description: String {
            max.map { "max(\($0))" } ?? "unlimited"
        }

        /// The sum of two demands, ``unlimited`` if either is or if the sum exceeds `Int.max`.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            if lhs.rawValue == .max || rhs.rawValue == .max { return .unlimited }
            let sum = lhs.rawValue + rhs.rawValue  // Both are at most Int.max: no overflow.
            return sum > UInt(Int.max) ? .unlimited : Demand(rawValue: sum)
        }

        /// The difference of two demands: ``unlimited`` stays unlimited; anything else minus ``unlimited`` is
        /// ``none``; a finite difference stops at ``none``.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs.rawValue == .max { return .unlimited }
            if rhs.rawValue == .max { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        /// Adds a count; a negative count subtracts.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            rhs >= 0 ? lhs + .max(rhs) : lhs - .magnitude(of: rhs)
        }

        /// Subtracts a count; a negative count adds.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            rhs >= 0 ? lhs - .max(rhs) : lhs + .magnitude(of: rhs)
        }

        /// The magnitude of a count as a demand, limited to `Int.max`.
        @inlinable
        static func magnitude(of value: Int) -> Demand {
            Demand(rawValue: Swift.min(value.magnitude, UInt(Int.max)))
        }

        /// Multiplies by a count: ``unlimited`` stays unlimited, overflow gives ``unlimited``, a negative count
        /// gives ``none``.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs.rawValue == .max { return .unlimited }
            if rhs <= 0 { return .none }
            let (product, overflow) = Int(lhs.rawValue).multipliedReportingOverflow(by: rhs)
            return overflow ? .unlimited : Demand(rawValue: UInt(product))
        }

        /// Adds a demand in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// Subtracts a demand in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        /// Adds a count in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        /// Subtracts a count in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        /// Multiplies by a count in place.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        /// Orders demands by count, with ``unlimited`` above every count.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// True when the demand is finite and below `rhs`.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            rhs > 0 && lhs.rawValue < UInt(rhs)
        }

        /// True when the demand is finite and at most `rhs`.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool {
            rhs >= 0 && lhs.rawValue <= UInt(rhs)
        }

        /// True when the demand is unlimited or above `rhs`.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool {
            !(lhs <= rhs)
        }

        /// True when the demand is unlimited or at least `rhs`.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool {
            !(lhs < rhs)
        }

        /// True when the demand is finite and equal to `rhs`.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            rhs >= 0 && lhs.rawValue == UInt(rhs)
        }

        /// True when the demand is unlimited or differs from `rhs`.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool {
            !(lhs == rhs)
        }

        /// True when `lhs` is below the demand.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool {
            rhs > lhs
        }

        /// True when `lhs` is at most the demand.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool {
            rhs >= lhs
        }

        /// True when `lhs` is above the demand.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool {
            rhs < lhs
        }

        /// True when `lhs` is at least the demand.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool {
            rhs <= lhs
        }

        /// True when the demand is finite and equal to `lhs`.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool {
            rhs == lhs
        }

        /// True when the demand is unlimited or differs from `lhs`.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool {
            rhs != lhs
        }
    }
}
