import ViewfinderCore

/// Why a ``CameraSource`` stopped delivering frames.
public enum CameraSourceInterruptionReason: Hashable, Sendable {
    /// The device was unplugged or disconnected (`ENODEV`).
    case deviceRemoved
    /// Another program holds the device (`EBUSY`).
    case inUseByAnotherClient
    /// The driver reported a streaming failure (`EIO` and similar).
    case streamingError
}

/// Receives a ``CameraSource``'s interruptions, failures and device-list changes.
///
/// Every method has an empty default, so a delegate implements only what it needs. Calls arrive in order on the
/// source's delegate queue (see ``CameraSource/Options/delegateQueue``):
///
/// ```swift
/// final class Watcher: CameraSourceDelegate {
///     func cameraSourceWasInterrupted(_ source: CameraSource, reason: CameraSourceInterruptionReason) {
///         print("interrupted: \(reason)")
///     }
///     func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {
///         print("failed: \(error)")
///     }
/// }
/// ```
public protocol CameraSourceDelegate: AnyObject, Sendable {
    /// Capture stopped delivering frames for a reason outside the app's control.
    func cameraSourceWasInterrupted(_ source: CameraSource, reason: CameraSourceInterruptionReason)
    /// The device that interrupted capture is usable again; start capture again to resume.
    func cameraSourceInterruptionEnded(_ source: CameraSource)
    /// Capture stopped because of an error it cannot recover from; ``CameraSource/device`` is `nil` by now.
    func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError)
    /// A capture device appeared (reported when ``CameraSource/Options/announcesDeviceChanges`` is on).
    func cameraSource(_ source: CameraSource, didAddDevice device: CaptureDevice)
    /// A capture device went away (reported when ``CameraSource/Options/announcesDeviceChanges`` is on).
    func cameraSource(_ source: CameraSource, didRemoveDevice device: CaptureDevice)
}

extension CameraSourceDelegate {
    /// Does nothing.
    public func cameraSourceWasInterrupted(_ source: CameraSource, reason: CameraSourceInterruptionReason) {}
    /// Does nothing.
    public func cameraSourceInterruptionEnded(_ source: CameraSource) {}
    /// Does nothing.
    public func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {}
    /// Does nothing.
    public func cameraSource(_ source: CameraSource, didAddDevice device: CaptureDevice) {}
    /// Does nothing.
    public func cameraSource(_ source: CameraSource, didRemoveDevice device: CaptureDevice) {}
}
