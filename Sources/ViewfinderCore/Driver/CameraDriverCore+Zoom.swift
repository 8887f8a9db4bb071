extension CameraDriverCore {
    /// How far the live view is magnified, as the camera last reported it or as ``setLiveViewZoomLevel(_:)`` last
    /// set it; `nil` while not known or not connected.
    public var liveViewZoomLevel: LiveViewZoomLevel? {
        state.withLock { $0.liveViewZoomLevel }
    }

    /// The levels the connection magnifies live view to, from the whole picture to the most magnified; empty while
    /// not connected or without ``CameraFunctionality/liveViewZoom``.
    public var liveViewZoomLevels: [LiveViewZoomLevel] {
        guard let connection = currentConnection, connection.functionality.contains(.liveViewZoom) else { return [] }
        return connection.liveViewZoomLevels
    }

    /// Calls `observer` whenever ``liveViewZoomLevel`` changes, until the token is released.
    public func addLiveViewZoomLevelObserver(_ observer: @escaping @Sendable (LiveViewZoomLevel?) -> Void)
        -> ObservationToken
    {
        zoomObservers.addObserver(observer)
    }

    /// Magnifies the live view through the connection, returning once the camera has taken it; the level is then
    /// ``liveViewZoomLevel``.
    public func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws {
        try await withConnection(.liveViewZoom, for: "zoom the live view") { try await $0.setLiveViewZoomLevel(level) }
        recordLiveViewZoomLevel(level)
    }

    /// Moves the magnified part of the live view through the connection, returning once the camera has taken it.
    public func setLiveViewZoomCenter(_ center: LiveViewPoint) async throws {
        try await withConnection(.pannableLiveView, for: "move the magnified part of the live view") {
            try await $0.setLiveViewZoomCenter(center)
        }
    }

    /// Records how far the live view is magnified, and tells the observers when that changed.
    func recordLiveViewZoomLevel(_ level: LiveViewZoomLevel) {
        let changed = state.withLock { state in
            // A connection that ended meanwhile shows nothing; one being opened reports what it reads.
            guard state.link != nil || state.connection == .connecting, state.liveViewZoomLevel != level else {
                return false
            }
            state.liveViewZoomLevel = level
            return true
        }
        if changed {
            zoomObservers.notify(level)
        }
    }
}
