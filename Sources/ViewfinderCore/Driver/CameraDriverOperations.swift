/// What a driver does with a connected camera: set and step properties, take pictures, hold the shutter, drive the
/// focus, run live view and record.
///
/// ``CameraDriverConnection`` refines it with the connection's lifecycle; a PTP dialect conforms to it too, as the
/// part of the PTP driver that differs between makers. The half press, the held shutter, focus drive, touch AF, the
/// clock, live view and its zoom, video recording and property steps have defaults that throw ``ViewfinderError/Code/notAvailable``.
public protocol CameraDriverOperations: AnyObject, Sendable {
    /// Sends a property's new value; returns once the camera has taken it.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` for a property the camera does not have, and the errors
    ///   ``CameraPropertyBackend/setRawValue(_:forPropertyNamed:)`` documents.
    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws

    /// Moves a property the camera steps without listing its values (``CameraPropertyValueSetType/stepping``)
    /// `steps` steps up or down; returns once the camera has taken the request.
    func stepValue(forPropertyNamed name: String, by steps: Int) async throws

    /// Takes one picture, focusing first when `engageAutoFocus` is `true`; returns once the camera has taken it.
    func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws

    /// Presses the shutter button half down and holds it; returns once the camera has taken the press, or has focused
    /// where it says when it has.
    func engageAutoFocus() async throws

    /// Lets go of the half-pressed shutter button.
    func disengageAutoFocus() async throws

    /// Presses the shutter button fully and holds it; returns once the camera has taken the press.
    func engageShutter() async throws

    /// Lets go of the shutter button ``engageShutter()`` holds; returns once the camera has taken the picture.
    func disengageShutter() async throws

    /// Moves the focus one step of `amount` in `direction`; returns once the camera has taken the step.
    func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws

    /// Moves the autofocus point to `point` of the live view's aspect and focuses there; returns once the camera has
    /// focused.
    func touchAutoFocus(at point: LiveViewPoint) async throws

    /// Turns the camera off; the connection closes next.
    func powerOff() async throws

    /// What the camera serves now, for a camera that serves one category at a time; `nil` for one that serves all it
    /// offers at once.
    var currentCommandCategories: CameraCommandCategories? { get }

    /// Makes a camera that serves one category at a time serve `categories`; returns once it does.
    func switchToCommandCategories(_ categories: CameraCommandCategories) async throws

    /// Magnifies the live view; returns once the camera has taken it.
    func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws

    /// Sets the camera's clock; returns once the camera has taken it.
    func updateClock(to time: CameraClockTime) async throws

    /// Reads the camera's clock.
    func readClock() async throws -> CameraClockTime

    /// Starts live view, returning once frames can be fetched.
    func startLiveView() async throws

    /// Fetches the current live view image: JPEG bytes, without any header of the driver's protocol.
    func liveViewImage() async throws -> [UInt8]

    /// Fetches the current live view image with the geometry the camera sent with it, where it sends any.
    func liveViewImageWithGeometry() async throws -> (image: [UInt8], geometry: LiveViewGeometry?)

    /// Ends live view; errors are the driver's to ignore.
    func endLiveView() async

    /// Starts recording video; the connection reports the recording with ``CameraDriverContext/recordingStarted()``
    /// once the camera shows it.
    func startRecording() async throws

    /// Stops recording video; the connection reports it with ``CameraDriverContext/recordingStopped()``.
    func stopRecording() async throws

    /// Lets go of what the driver holds on the camera (live view, a remote mode) before the connection closes on
    /// request.
    func prepareToClose() async
}

extension CameraDriverOperations {
    /// Throws ``ViewfinderError/Code/notAvailable``: the camera has no property that moves by steps.
    public func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        throw ViewfinderError(.notAvailable, "cannot step \(name): the camera has no property that moves by steps")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera's shutter button cannot be held half down.
    public func engageAutoFocus() async throws {
        throw ViewfinderError(.notAvailable, "the camera's shutter button cannot be held half down")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera's shutter button cannot be held half down.
    public func disengageAutoFocus() async throws {
        throw ViewfinderError(.notAvailable, "the camera's shutter button cannot be held half down")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera's shutter cannot be held.
    public func engageShutter() async throws {
        throw ViewfinderError(.notAvailable, "the camera's shutter cannot be held")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera's shutter cannot be held.
    public func disengageShutter() async throws {
        throw ViewfinderError(.notAvailable, "the camera's shutter cannot be held")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera cannot drive its focus.
    public func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws {
        throw ViewfinderError(.notAvailable, "the camera cannot drive its focus")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera cannot focus at a point of its live view.
    public func touchAutoFocus(at point: LiveViewPoint) async throws {
        throw ViewfinderError(.notAvailable, "the camera cannot focus at a point of its live view")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera cannot be turned off remotely.
    public func powerOff() async throws {
        throw ViewfinderError(.notAvailable, "the camera cannot be turned off remotely")
    }

    /// `nil`: the camera serves all it offers at once.
    public var currentCommandCategories: CameraCommandCategories? { nil }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera serves all it offers at once, with nothing to switch.
    public func switchToCommandCategories(_ categories: CameraCommandCategories) async throws {
        throw ViewfinderError(.notAvailable, "the camera serves all it offers at once and has nothing to switch")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera cannot zoom its live view.
    public func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws {
        throw ViewfinderError(.notAvailable, "the camera cannot zoom its live view")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera's clock cannot be set.
    public func updateClock(to time: CameraClockTime) async throws {
        throw ViewfinderError(.notAvailable, "the camera's clock cannot be set")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera's clock cannot be read.
    public func readClock() async throws -> CameraClockTime {
        throw ViewfinderError(.notAvailable, "the camera's clock cannot be read")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera offers no live view.
    public func startLiveView() async throws {
        throw ViewfinderError(.notAvailable, "the camera offers no live view Viewfinder can drive")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera offers no live view.
    public func liveViewImage() async throws -> [UInt8] {
        throw ViewfinderError(.notAvailable, "the camera offers no live view Viewfinder can drive")
    }

    /// Fetches the image with ``liveViewImage()``; the camera sends no geometry with it.
    public func liveViewImageWithGeometry() async throws -> (image: [UInt8], geometry: LiveViewGeometry?) {
        (try await liveViewImage(), nil)
    }

    /// Does nothing.
    public func endLiveView() async {}

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera cannot record video.
    public func startRecording() async throws {
        throw ViewfinderError(.notAvailable, "the camera cannot record video")
    }

    /// Throws ``ViewfinderError/Code/notAvailable``: the camera cannot record video.
    public func stopRecording() async throws {
        throw ViewfinderError(.notAvailable, "the camera cannot record video")
    }

    /// Does nothing.
    public func prepareToClose() async {}
}
