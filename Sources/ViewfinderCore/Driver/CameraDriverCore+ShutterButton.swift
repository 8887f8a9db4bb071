extension CameraDriverCore {
    /// Whether the shutter button is held half down by ``engageAutoFocus()``; `false` while not connected.
    public var autoFocusEngaged: Bool {
        state.withLock { $0.autoFocusEngaged }
    }

    /// Calls `observer` whenever ``autoFocusEngaged`` changes, until the token is released.
    public func addAutoFocusEngagedObserver(_ observer: @escaping @Sendable (Bool) -> Void) -> ObservationToken {
        autoFocusObservers.addObserver(observer)
    }

    /// Holds the shutter button half down through the connection, returning once the camera has taken the press.
    public func engageAutoFocus() async throws {
        try await withConnection(.shutterHalfPress, for: "focus with a half press") { try await $0.engageAutoFocus() }
        setAutoFocusEngaged(true)
    }

    /// Lets go of the half-pressed shutter button through the connection.
    public func disengageAutoFocus() async throws {
        try await withConnection(.shutterHalfPress, for: "let go of the half press") {
            try await $0.disengageAutoFocus()
        }
        setAutoFocusEngaged(false)
    }

    /// Holds the shutter button fully down through the connection.
    public func engageShutter() async throws {
        try await withConnection(.heldShutter, for: "hold the shutter") { try await $0.engageShutter() }
    }

    /// Lets go of the shutter button through the connection, returning once the camera has taken the picture.
    public func disengageShutter() async throws {
        try await withConnection(.heldShutter, for: "let go of the shutter") { try await $0.disengageShutter() }
    }

    /// Records whether the shutter button is held half down, and tells the observers when that changed.
    private func setAutoFocusEngaged(_ engaged: Bool) {
        let changed = state.withLock { state in
            // A connection that ended meanwhile holds nothing.
            guard state.link != nil, state.autoFocusEngaged != engaged else { return false }
            state.autoFocusEngaged = engaged
            return true
        }
        if changed {
            autoFocusObservers.notify(engaged)
        }
    }
}
