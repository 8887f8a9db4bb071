/// What a camera can do over its connection.
public struct CameraFunctionality: OptionSet, Hashable, Sendable {
    /// The bits of the set.
    public let rawValue: UInt32

    /// Creates a set from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Taking a picture with ``Camera/invokeOneShotShutterExplicitlyEngagingAutoFocus(_:)``.
    public static let stillCapture = CameraFunctionality(rawValue: 1 << 0)
    /// A live view stream.
    public static let liveView = CameraFunctionality(rawValue: 1 << 1)
    /// Starting and stopping video recording.
    public static let videoRecording = CameraFunctionality(rawValue: 1 << 2)
    /// Listing, downloading and showing thumbnails of files on the card (``CameraFileAccess``).
    public static let fileAccess = CameraFunctionality(rawValue: 1 << 3)
    /// Deleting files on the card.
    public static let fileDeletion = CameraFunctionality(rawValue: 1 << 4)
    /// Setting properties such as ISO, shutter speed and aperture.
    public static let propertyControl = CameraFunctionality(rawValue: 1 << 5)
    /// Moving the focus motor in steps with ``Camera/driveFocus(_:towards:)``.
    public static let directFocusDrive = CameraFunctionality(rawValue: 1 << 6)
    /// Holding the shutter button down with ``Camera/engageShutter()`` and letting it go with
    /// ``Camera/disengageShutter()``, as a bulb exposure needs.
    public static let heldShutter = CameraFunctionality(rawValue: 1 << 7)
    /// Holding the shutter button half down to focus with ``Camera/engageAutoFocus()`` and letting it go with
    /// ``Camera/disengageAutoFocus()``.
    public static let shutterHalfPress = CameraFunctionality(rawValue: 1 << 8)
    /// Reading and setting the camera's clock with ``Camera/readClock()`` and ``Camera/updateClock(to:)``.
    public static let clockUpdate = CameraFunctionality(rawValue: 1 << 9)
    /// Magnifying the live view with ``Camera/setLiveViewZoomLevel(_:)``.
    public static let liveViewZoom = CameraFunctionality(rawValue: 1 << 10)
    /// Turning the camera off as the connection closes, with ``Camera/disconnect(poweringOffCamera:)``.
    public static let powerOffOnDisconnect = CameraFunctionality(rawValue: 1 << 11)
    /// Pictures the camera offers the computer by itself as it takes them
    /// (``CameraFileAccess/addCameraInitiatedTransferHandler(_:)``).
    public static let cameraInitiatedTransfer = CameraFunctionality(rawValue: 1 << 14)
    /// Reporting where the autofocus points are and which the camera uses, in ``Camera/focusInfo`` (and with each
    /// live view frame where the frame carries them).
    public static let focusInfo = CameraFunctionality(rawValue: 1 << 16)
    /// Moving the autofocus point to a live view point and focusing there with ``Camera/touchAutoFocus(at:)``.
    public static let touchAutoFocus = CameraFunctionality(rawValue: 1 << 17)
}
