/// A focus mode: manual focus, or how autofocus behaves.
public enum FocusModeValue: CameraPropertyValue, CaseIterable {
    /// The photographer focuses by hand.
    case manual
    /// Autofocus, with no more said about how it tracks.
    case autoFocus
    /// Autofocus that locks once focused (AF-S, One Shot).
    case singleAutoFocus
    /// Autofocus that keeps tracking a moving subject (AF-C, AI Servo).
    case continuousAutoFocus
    /// Autofocus that switches between single and continuous by itself (AF-A, AI Focus).
    case automaticAutoFocus
    /// Autofocus for close subjects.
    case macro

    /// "MF", "AF", "AF-S", "AF-C", "AF-A" or "Macro".
    public var localizedDisplayValue: String {
        switch self {
        case .manual: return "MF"
        case .autoFocus: return "AF"
        case .singleAutoFocus: return "AF-S"
        case .continuousAutoFocus: return "AF-C"
        case .automaticAutoFocus: return "AF-A"
        case .macro: return "Macro"
        }
    }
}
