/// How the camera is held while it makes a live view frame, as the camera reports it.
public enum LiveViewOrientation: Sendable, Hashable, CaseIterable {
    /// Level, the usual way.
    case landscape
    /// Turned a quarter turn clockwise, its grip up.
    case portraitRight
    /// Turned a quarter turn anticlockwise, its grip down.
    case portraitLeft
    /// Upside down.
    case upsideDown
}
