/// A property value in a camera's own encoding, as its protocol or driver carries it.
///
/// A PTP camera sends ISO 800 as the 16-bit integer 800 and f/5.6 as 560; a vendor may send ISO 800 as an
/// unrelated code. A V4L2 control carries a 32- or 64-bit integer, or a menu index. Viewfinder keeps that encoding
/// beside each value so that setting a value sends back exactly what the camera offered.
public enum CameraPropertyRawValue: Hashable, Sendable, CustomStringConvertible {
    /// An integer of any width up to 64 bits, signed or unsigned up to `Int64.max`.
    case integer(Int64)
    /// A string.
    case string(String)

    /// The integer, for ``integer(_:)``.
    public var integerValue: Int64? {
        guard case .integer(let value) = self else { return nil }
        return value
    }

    /// The value as written in logs: the integer in decimal, or the string in quotes.
    public var description: String {
        switch self {
        case .integer(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        }
    }
}
