/// Where the camera puts the pictures it takes: on its card, or to the computer connected to it.
public enum ImageDestinationValue: CameraPropertyValue, CaseIterable {
    /// The camera's own storage, its memory card.
    case camera
    /// The connected computer, which reads each picture from the camera's memory.
    case connectedHost
    /// Both the card and the connected computer.
    case cameraAndHost

    /// "Camera", "Computer" or "Camera and Computer".
    public var localizedDisplayValue: String {
        switch self {
        case .camera: "Camera"
        case .connectedHost: "Computer"
        case .cameraAndHost: "Camera and Computer"
        }
    }
}
