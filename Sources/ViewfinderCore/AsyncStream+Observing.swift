extension AsyncStream where Element: Sendable {
    /// What an observer-style API reports, as an async sequence: the observer is added now, and removed once the
    /// iteration ends, is cancelled, or the stream is released.
    ///
    /// Every `add…Observer` call that returns an ``ObservationToken`` reads this way; the most used have their own
    /// (``CameraFileAccess/newFiles()``, ``CameraDiscovery/discoveryChanges()``).
    ///
    /// ```swift
    /// for await state in AsyncStream(observing: camera.addConnectionStateObserver) {
    ///     print("now \(state)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - add: The API's `add…Observer` function.
    ///   - bufferingPolicy: What the stream keeps of what comes while nobody is reading: by default the newest 1024,
    ///     the older dropped.
    public init(
        observing add: (@escaping @Sendable (Element) -> Void) -> ObservationToken,
        bufferingPolicy: Continuation.BufferingPolicy = .bufferingNewest(1024)
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let token = add { continuation.yield($0) }
        continuation.onTermination = { _ in token.cancel() }
        self = stream
    }
}

extension CameraFileAccess {
    /// Each file that appears on the card from now on, such as a picture just taken, as an async sequence.
    ///
    /// The newest 1024 files wait for a reader that falls behind; older ones are dropped.
    ///
    /// ```swift
    /// for await item in camera.newFiles() {
    ///     try await camera.download(item, toFile: "/home/me/Pictures/\(item.safeFileName)")
    /// }
    /// ```
    public func newFiles() -> AsyncStream<CameraFileItem> {
        AsyncStream(observing: { addNewFileObserver($0) })
    }
}

extension CameraDiscovery {
    /// Each camera discovered, updated or lost from now on, in order, as an async sequence.
    ///
    /// The newest 1024 changes wait for a reader that falls behind; older ones are dropped, and
    /// ``CameraDiscovery/availableCameras`` stays whole.
    ///
    /// ```swift
    /// for await change in discovery.discoveryChanges() {
    ///     if case .discovered(let camera) = change { print("found \(camera)") }
    /// }
    /// ```
    public func discoveryChanges() -> AsyncStream<CameraDiscoveryChange> {
        AsyncStream(observing: { addDiscoveryObserver($0) })
    }
}

extension CameraObserverRegistry {
    /// Every event from the next one on, as an async sequence; the newest 1024 wait for a reader that falls behind.
    public func events() -> AsyncStream<Event> {
        AsyncStream(observing: { addObserver($0) })
    }
}
