/// What a ``CameraDriverConnection`` reports to: the camera's typed properties, new-file observers and recording
/// state, for the one connection it was opened for.
///
/// ``CameraDriverCore`` makes a context for each connection it opens and hands it to the driver's opening closure.
/// The context holds the core weakly: a connection keeps it, and reports do nothing once the camera is gone or has
/// connected again, so that a connection that ended late never touches the next one's state.
///
/// ```swift
/// func cameraReportedISO(_ code: Int) {
///     let raw = CameraPropertyRawValue.integer(Int64(code))
///     let iso = ISOValue(code).map { TypedCameraPropertyValue($0, rawValue: raw) }
///     context.update(.iso, currentValue: iso, validSettableValues: isoValues)
/// }
/// ```
public final class CameraDriverContext: Sendable {
    private weak let host: (any CameraDriverHost)?
    private let generation: UInt64

    init(host: any CameraDriverHost, generation: UInt64) {
        self.host = host
        self.generation = generation
    }

    /// The current host, while this context's connection is the camera's current one or is being opened.
    private var currentHost: (any CameraDriverHost)? {
        guard let host, host.isCurrent(generation) else { return nil }
        return host
    }

    /// Whether the camera this connection was opened for still exists.
    public var cameraExists: Bool { host != nil }

    /// Passes a property's value and valid settable values to the camera's typed property.
    public func update<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, currentValue: TypedCameraPropertyValue<Value>?,
        validSettableValues: CameraPropertySettableValues<Value>
    ) {
        currentHost?.property(for: identifier).update(
            currentValue: currentValue, validSettableValues: validSettableValues)
    }

    /// The camera's typed property for `identifier`, to read what it shows; `nil` once the camera is gone.
    public func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value>? {
        host?.property(for: identifier)
    }

    /// Whether anyone listens for new files or their previews: a connection may skip reading a new file's information
    /// when not.
    public var wantsNewFiles: Bool {
        guard let host = currentHost else { return false }
        return host.newFileObservers.hasObservers || host.shotPreviews.hasObservers
    }

    /// Tells the camera's new-file observers of a file the camera added, and its shot preview observers of a picture.
    public func reportNewFile(_ item: CameraFileItem) {
        guard let host = currentHost else { return }
        host.newFileObservers.notify([item])
        guard item.kind == .jpegImage || item.kind == .rawImage else { return }
        let generation = generation
        host.shotPreviews.notify([
            CameraTransferOffer(item: item) { [weak host] in host?.isCurrent(generation) ?? false }
        ])
    }

    /// Tells the camera's new-file observers and transfer handlers of a picture the camera holds in its memory for
    /// the computer to read, on no card, and keeps its memory for until it is read.
    public func reportTransferRequest(_ item: CameraFileItem) {
        guard let host = currentHost else { return }
        host.newFileObservers.notify([item])
        let generation = generation
        host.transferOffers.notify([
            CameraTransferOffer(item: item) { [weak host] in host?.isCurrent(generation) ?? false }
        ])
    }

    /// Records where the camera's autofocus points are, as it says, and tells the camera's focus info observers when
    /// that changed.
    public func reportFocusInfo(_ info: FocusInfo?) {
        host?.updateFocusInfo(info, generation: generation)
    }

    /// Records that the camera records video, unless that is known already, and starts the timer's ticks.
    public func recordingStarted() {
        currentHost?.beginRecording()
    }

    /// Records that the camera stopped recording video.
    public func recordingStopped() {
        currentHost?.endRecording()
    }

    /// Records how far the camera magnifies its live view, as it reported it.
    public func reportLiveViewZoomLevel(_ level: LiveViewZoomLevel) {
        currentHost?.recordLiveViewZoomLevel(level)
    }

    /// The error for a call that found the connection ended with `reason`: it says that the camera went away, and
    /// to connect again; `nil` once the camera is gone.
    public func lostCameraError(_ reason: ViewfinderError, while activity: String) -> ViewfinderError? {
        host?.lostCameraError(reason, while: activity)
    }
}

/// What a ``CameraDriverContext`` reaches in the camera it reports to: the core, whatever its connection's type.
protocol CameraDriverHost: AnyObject, Sendable {
    /// Whether the connection of `generation` is the current one, or is being opened.
    func isCurrent(_ generation: UInt64) -> Bool
    /// The camera's typed property for `identifier`.
    func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value>
    /// The observers of files the camera adds.
    var newFileObservers: CameraObserverRegistry<[CameraFileItem]> { get }
    /// The observers of pictures the camera offers the computer.
    var transferOffers: CameraObserverRegistry<[CameraTransferOffer]> { get }
    /// The observers of previews of pictures the camera writes to its card.
    var shotPreviews: CameraObserverRegistry<[CameraTransferOffer]> { get }
    /// Records the focus information the connection of `generation` reported, while it is the current one.
    func updateFocusInfo(_ info: FocusInfo?, generation: UInt64)
    /// Records that the camera records video.
    func beginRecording()
    /// Records that the camera stopped recording video.
    func endRecording()
    /// Records how far the camera magnifies its live view.
    func recordLiveViewZoomLevel(_ level: LiveViewZoomLevel)
    /// The error for a call that found the camera gone with `reason`.
    func lostCameraError(_ reason: ViewfinderError, while activity: String) -> ViewfinderError
}

/// A picture a connection reported, held for the computer or written to the card, with the way to tell whether that
/// connection is still the camera's current one.
struct CameraTransferOffer: Sendable {
    /// The picture.
    var item: CameraFileItem
    /// Whether the connection that reported it is still the camera's current one.
    var connectionIsCurrent: @Sendable () -> Bool
}
