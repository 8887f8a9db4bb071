/// The focal length the lens is at, in millimetres.
public struct FocalLengthValue: CameraPropertyValue, Comparable {
    /// The focal length in hundredths of a millimetre, as PTP cameras report it.
    public let hundredthsOfAMillimetre: Int

    /// Creates a focal length of `hundredthsOfAMillimetre` hundredths of a millimetre; `nil` when it is not positive.
    public init?(hundredthsOfAMillimetre: Int) {
        guard hundredthsOfAMillimetre > 0 else { return nil }
        self.hundredthsOfAMillimetre = hundredthsOfAMillimetre
    }

    /// The focal length in millimetres.
    public var millimetres: Double { Double(hundredthsOfAMillimetre) / 100 }

    /// The focal length to the millimetre, or to a tenth below 10 mm, such as "35 mm" or "4.5 mm".
    public var localizedDisplayValue: String {
        let tenths = (hundredthsOfAMillimetre + 5) / 10
        if tenths < 100, tenths % 10 != 0 {
            return "\(tenths / 10).\(tenths % 10) mm"
        }
        return "\((hundredthsOfAMillimetre + 50) / 100) mm"
    }

    /// Whether the first focal length is shorter.
    public static func < (lhs: FocalLengthValue, rhs: FocalLengthValue) -> Bool {
        lhs.hundredthsOfAMillimetre < rhs.hundredthsOfAMillimetre
    }
}
