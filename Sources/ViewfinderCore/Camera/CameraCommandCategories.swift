/// What a camera does for its client: shooting stills, reaching its files, recording video; a camera serves some
/// or all of them at once.
///
/// Most cameras serve everything they offer at once. Fujifilm bodies over WiFi serve remote shooting or their files,
/// one at a time, and switch between them:
///
/// ```swift
/// if !camera.currentCommandCategories.contains(.fileAccess) {
///     try await camera.switchToCommandCategories(.fileAccess)
/// }
/// ```
public struct CameraCommandCategories: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bits of the set.
    public let rawValue: UInt32

    /// Creates a set from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Taking pictures, live view and the shooting settings.
    public static let stillsShooting = CameraCommandCategories(rawValue: 1 << 0)
    /// Listing and downloading the files on the camera's card.
    public static let fileAccess = CameraCommandCategories(rawValue: 1 << 1)
    /// Recording video.
    public static let videoRecording = CameraCommandCategories(rawValue: 1 << 2)

    /// The categories' names, such as `stills shooting, file access`, or `none`.
    public var description: String {
        let named: [(CameraCommandCategories, String)] = [
            (.stillsShooting, "stills shooting"), (.fileAccess, "file access"), (.videoRecording, "video"),
        ]
        let names = named.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
