/// How many more pictures fit on the camera's card at the current settings.
public struct ShotsAvailableValue: CameraPropertyValue, Comparable {
    /// The number of pictures.
    public let count: Int

    /// Creates a count of pictures.
    public init(_ count: Int) {
        self.count = count
    }

    /// The number, such as "412".
    public var localizedDisplayValue: String { String(count) }

    /// Whether the first count is smaller.
    public static func < (lhs: ShotsAvailableValue, rhs: ShotsAvailableValue) -> Bool {
        lhs.count < rhs.count
    }
}
