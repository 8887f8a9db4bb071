import ViewfinderCore
import ViewfinderHTTPMessage

extension SonyRemoteConnection {
    /// Asks the camera for live view (`startLiveview`) and opens the stream at the URL it gives.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for an answer without an http URL, or what the call and
    ///   opening the stream throw.
    public func startLiveView() async throws {
        let result = try await shootingCall("startLiveview")
        guard let address = result.first?.string, let url = HTTPURL(address) else {
            throw ViewfinderError(
                .malformedData, "\(peer) answered startLiveview without the stream's http URL")
        }
        let liveView = try await SonyRemoteLiveView.open(
            url, peer: peer, timeout: configuration.liveViewTimeout,
            maximumFrameLength: configuration.maximumFrameLength)
        let previous = state.withLock { state in
            defer { state.liveView = liveView }
            return state.liveView
        }
        previous?.close()
    }

    /// The next whole frame the camera sends; the packets that arrived since the last one was asked for are
    /// dropped.
    public func liveViewImage() async throws -> [UInt8] {
        guard let liveView = state.withLock({ $0.liveView }) else {
            throw ViewfinderError(.notAvailable, "live view is not running on \(peer)")
        }
        let frame = try await liveView.nextFrame().jpeg
        state.withLock { $0.lastLiveViewFrame = frame }
        return frame
    }

    /// Closes the stream and asks the camera to stop it (`stopLiveview`).
    public func endLiveView() async {
        let liveView = state.withLock { state in
            defer { state.liveView = nil }
            return state.liveView
        }
        guard let liveView else { return }
        liveView.close()
        _ = try? await call("stopLiveview")
    }
}
