/// The values a property accepts now, in the camera's order: a list, the steps of an integer range, or none listed
/// for a property the camera steps through itself.
///
/// A list holds its values. A numeric range, such as a device control from 0 to 65535, makes each value when it is
/// read, so a range of any size costs the same small amount of memory. ``stepping`` holds no values: the camera
/// moves the property up or down a step at a time without saying what the steps are.
///
/// ```swift
/// let values = try CameraPropertySettableValues<CameraControlValue>.numericRange(from: 0, through: 255, step: 1) {
///     .integer($0)
/// }
/// print(values.count)  // 256
/// ```
public struct CameraPropertySettableValues<Value: CameraPropertyValue>: RandomAccessCollection, Sendable, Equatable,
    ExpressibleByArrayLiteral
{
    /// The steps of an integer range and how to make the value of each.
    private struct NumericRange: Sendable {
        let lowerBound: Int64
        let step: Int64
        let count: Int
        let makeValue: @Sendable (Int64) -> Value?
        let rawValueOfValue: (@Sendable (Value) -> Int64?)?

        func rawValue(at position: Int) -> Int64 {
            // Wrapping arithmetic: position × step never exceeds the range's width, which fits in 64 bits.
            lowerBound &+ Int64(bitPattern: UInt64(position) &* UInt64(step))
        }

        func position(ofRawValue raw: Int64) -> Int? {
            guard raw >= lowerBound else { return nil }
            let offset = UInt64(bitPattern: raw &- lowerBound)
            guard offset % UInt64(step) == 0, offset / UInt64(step) < UInt64(count) else { return nil }
            return Int(offset / UInt64(step))
        }
    }

    private enum Storage: Sendable {
        case list([TypedCameraPropertyValue<Value>])
        case range(NumericRange)
        case stepping
    }

    private let storage: Storage

    /// Creates a list of values, leaving out those that are ``TypedCameraPropertyValue/isUnknown``: a code that
    /// nobody knows the meaning of is never offered as a value to set.
    public init(_ values: [TypedCameraPropertyValue<Value>]) {
        storage = .list(values.filter { !$0.isUnknown })
    }

    /// Creates a list of values.
    public init(arrayLiteral elements: TypedCameraPropertyValue<Value>...) {
        self.init(elements)
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// A property the camera moves a step up or down at a time, without listing its values; it holds no values, and
    /// the property is set with ``TypedCameraProperty/increment(timeout:)`` and ``TypedCameraProperty/decrement(timeout:)``.
    public static var stepping: Self { Self(storage: .stepping) }

    /// Creates the steps of an integer range, each a value whose raw value is its integer.
    ///
    /// - Parameters:
    ///   - lowerBound: The first integer.
    ///   - upperBound: The last integer; the range ends at the last step that does not pass it.
    ///   - step: The distance between steps, above zero.
    ///   - makeValue: The meaning of an integer, or `nil` for one with no known meaning; called as values are read.
    ///   - rawValueOfValue: The integer of a meaning, the inverse of `makeValue`, so that
    ///     ``first(matchingCommonValue:)`` finds a value without reading every step.
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` for a step below 1 or an upper bound below the lower one,
    ///   as a device may report.
    public static func numericRange(
        from lowerBound: Int64,
        through upperBound: Int64,
        step: Int64,
        makeValue: @escaping @Sendable (Int64) -> Value?,
        rawValueOfValue: (@Sendable (Value) -> Int64?)? = nil
    ) throws -> Self {
        guard step > 0, upperBound >= lowerBound else {
            throw ViewfinderError(
                .invalidArgument,
                "a stepped range needs a step above zero and an upper bound at or above the lower one, "
                    + "not \(lowerBound)...\(upperBound) in steps of \(step)")
        }
        let width = UInt64(bitPattern: upperBound &- lowerBound)
        let lastPosition = width / UInt64(step)
        guard lastPosition < UInt64(Int.max) else {
            throw ViewfinderError(
                .invalidArgument, "the range \(lowerBound)...\(upperBound) in steps of \(step) has too many steps")
        }
        return Self(
            storage: .range(
                NumericRange(
                    lowerBound: lowerBound, step: step, count: Int(lastPosition) + 1, makeValue: makeValue,
                    rawValueOfValue: rawValueOfValue)))
    }

    /// ``CameraPropertyValueSetType/enumeration`` for a list, ``CameraPropertyValueSetType/numericRange`` for a
    /// range, ``CameraPropertyValueSetType/stepping`` for ``stepping``, ``CameraPropertyValueSetType/none`` when
    /// empty.
    public var valueSetType: CameraPropertyValueSetType {
        switch storage {
        case .list(let values): return values.isEmpty ? .none : .enumeration
        case .range: return .numericRange
        case .stepping: return .stepping
        }
    }

    /// The position of the first value.
    public var startIndex: Int { 0 }

    /// The position after the last value.
    public var endIndex: Int {
        switch storage {
        case .list(let values): return values.count
        case .range(let range): return range.count
        case .stepping: return 0
        }
    }

    /// The value at a position.
    public subscript(position: Int) -> TypedCameraPropertyValue<Value> {
        switch storage {
        case .list(let values):
            return values[position]
        case .range(let range):
            precondition(position >= 0 && position < range.count, "position \(position) is outside the range")
            let raw = range.rawValue(at: position)
            guard let value = range.makeValue(raw) else {
                return TypedCameraPropertyValue(unrecognizedRawValue: .integer(raw))
            }
            return TypedCameraPropertyValue(value, rawValue: .integer(raw))
        case .stepping:
            preconditionFailure("a stepping property lists no values, so it has no position \(position)")
        }
    }

    /// The position of a value, found by its raw value in a range without reading every step.
    public func position(of value: TypedCameraPropertyValue<Value>) -> Int? {
        switch storage {
        case .list(let values):
            return values.firstIndex(of: value)
        case .range(let range):
            let position = value.rawValue.integerValue.flatMap(range.position(ofRawValue:))
            return position.flatMap { self[$0] == value ? $0 : nil }
        case .stepping:
            return nil
        }
    }

    /// The first value whose ``TypedCameraPropertyValue/commonValue`` is `commonValue`.
    ///
    /// A range made without `rawValueOfValue` reads its steps one by one until it finds the value.
    public func first(matchingCommonValue commonValue: Value) -> TypedCameraPropertyValue<Value>? {
        if case .range(let range) = storage, let rawValueOfValue = range.rawValueOfValue {
            let position = rawValueOfValue(commonValue).flatMap(range.position(ofRawValue:))
            return position.map { self[$0] }.flatMap { $0.commonValue == commonValue ? $0 : nil }
        }
        return first { $0.commonValue == commonValue }
    }

    /// Whether two sets hold the same values; ranges are compared by their bounds and steps.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.list(let left), .list(let right)):
            return left == right
        case (.range(let left), .range(let right)):
            return left.lowerBound == right.lowerBound && left.step == right.step && left.count == right.count
        case (.stepping, .stepping):
            return true
        default:
            return false
        }
    }
}
