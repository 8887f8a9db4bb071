extension CameraDriverCore {
    /// Where the camera's autofocus points are, as the connection last reported; `nil` while not connected.
    public var focusInfo: FocusInfo? {
        state.withLock { $0.focusInfo }
    }

    /// Calls `observer` whenever ``focusInfo`` changes, until the token is released.
    public func addFocusInfoObserver(_ observer: @escaping @Sendable (FocusInfo?) -> Void) -> ObservationToken {
        focusInfoObservers.addObserver(observer)
    }

    /// Moves the autofocus point to `point` and focuses there through the connection.
    public func touchAutoFocus(at point: LiveViewPoint) async throws {
        try await withConnection(.touchAutoFocus, for: "focus at \(point)") { try await $0.touchAutoFocus(at: point) }
    }

    /// Records the focus information the connection of `generation` reported while it is the current one, and tells
    /// the observers when it changed.
    func updateFocusInfo(_ info: FocusInfo?, generation: UInt64) {
        let changed = state.withLock { state in
            guard
                state.link?.generation == generation
                    || (state.connection == .connecting && state.generation == generation),
                state.focusInfo != info
            else { return false }
            state.focusInfo = info
            return true
        }
        if changed {
            focusInfoObservers.notify(info)
        }
    }
}
