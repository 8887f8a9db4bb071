import ViewfinderCore
import ViewfinderJPEG

extension SonyRemoteConnection {
    /// Presses the shutter button half down with `actHalfPressShutter`; the camera focuses and says how in its
    /// events' `focusStatus`.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not list the call now; what switching
    ///   back from the card and the call throw.
    public func engageAutoFocus() async throws {
        _ = try await shootingCall("actHalfPressShutter")
    }

    /// Lets go of the half press with `cancelHalfPressShutter`, and of a touch AF position set before with
    /// `cancelTouchAFPosition`, so that the camera focuses where it chooses again.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not list the call now; what the calls
    ///   throw.
    public func disengageAutoFocus() async throws {
        _ = try await shootingCall("cancelHalfPressShutter")
        guard state.withLock({ $0.touchPositionSet }), isAvailable("cancelTouchAFPosition") else { return }
        _ = try await call("cancelTouchAFPosition")
        state.withLock { $0.touchPositionSet = false }
    }

    /// Focuses at `point` of the live view frame with `setTouchAFPosition`, which takes the point in percent of the
    /// frame's width and height; returns once the camera has focused.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` before live view has shown a frame (points are in its frames'
    ///   pixels) or when the camera does not list the call now; `invalidArgument` for a point outside the frame;
    ///   `protocolFailure` when the camera says it did not focus; what the call throws.
    public func touchAutoFocus(at point: LiveViewPoint) async throws {
        guard let frame = state.withLock({ $0.lastLiveViewFrame }) else {
            throw ViewfinderError(
                .notAvailable, "touch AF on \(peer) takes a point of the live view picture: start live view first")
        }
        let size = try JPEGDecoder().header(of: frame).dimensions
        guard size.width > 0, size.height > 0, (0...size.width).contains(point.x), (0...size.height).contains(point.y)
        else {
            throw ViewfinderError(
                .invalidArgument,
                "the point \(point) is outside the live view picture (0,0 to \(size.width)x\(size.height))")
        }
        let percent = [Double(point.x) * 100 / Double(size.width), Double(point.y) * 100 / Double(size.height)]
        let result = try await shootingCall("setTouchAFPosition", percent.map { .number(($0 * 10).rounded() / 10) })
        state.withLock { $0.touchPositionSet = true }
        if result.dropFirst().first?["AFResult"] == .bool(false) {
            throw ViewfinderError(.protocolFailure, "\(peer) did not focus at \(point) of its live view")
        }
    }
}
