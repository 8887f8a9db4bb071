/// A four-character code that names a pixel format, as V4L2 and most video APIs spell them (`"NV12"`, `"YUYV"`).
///
/// The first character is the least significant byte, as V4L2's `v4l2_fourcc` macro builds them.
public struct FourCharacterCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The code packed into 32 bits, first character in the lowest byte.
    public let rawValue: UInt32

    /// Creates a code from its packed value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Creates a code from four ASCII characters; shorter strings are padded with spaces.
    ///
    /// Returns `nil` when `string` has more than four characters or one that is not ASCII.
    public init?(_ string: String) {
        let bytes = Array(string.utf8)
        guard bytes.count <= 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: " ")
            value |= UInt32(byte) << (8 * UInt32(index))
        }
        self.rawValue = value
    }

    /// Creates a code from a string literal of at most four ASCII characters.
    ///
    /// - Precondition: The literal has at most four ASCII characters.
    public init(stringLiteral value: String) {
        guard let code = FourCharacterCode(value) else {
            preconditionFailure("the FourCC literal \"\(value)\" is not at most four ASCII characters")
        }
        self = code
    }

    /// The four characters, with unprintable bytes shown as `.`.
    public var description: String {
        var characters = ""
        for index in 0..<4 {
            let byte = UInt8(truncatingIfNeeded: rawValue >> (8 * UInt32(index)))
            characters.append((0x20..<0x7F).contains(byte) ? Character(Unicode.Scalar(byte)) : ".")
        }
        return characters
    }
}
