import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderSystem

/// An Olympus's live view: the UDP socket its RTP packets arrive on, read on a thread of its own only while a frame
/// is asked for.
///
/// The camera sends packets as fast as it makes frames; those that arrived since the last frame was asked for are
/// dropped unread, and the next whole frame to arrive is the one returned, so a slow consumer sees the camera's
/// latest picture rather than a growing backlog. Packets from any address but the camera's are ignored.
package final class OlympusLiveView: HTTPCameraLiveView {
    /// The largest packet read: the most UDP carries.
    static let maximumPacketLength = 65536
    /// The most waiting packets dropped before a frame is read; a flood beyond is read as it comes.
    static let maximumDrain = 4096

    private let socket: CameraDatagramSocket
    private let timeout: Duration
    private let assembler: Locked<OlympusRTPAssembler>

    /// The port packets arrive on, for `startliveview`.
    package var port: UInt16 { socket.port }

    /// Opens a socket on `port` (a free one for 0) for the packets of the camera at `host`, a frame awaited at most
    /// `timeout` and at most `maximumFrameLength` bytes long.
    ///
    /// - Throws: `ViewfinderError` when no socket or thread can be had.
    package init(host: String, port: UInt16, timeout: Duration, maximumFrameLength: Int) throws(ViewfinderError) {
        socket = try CameraDatagramSocket(
            host: host, port: port, peer: "the Olympus", threadName: "olympus-liveview")
        self.timeout = timeout
        assembler = Locked(OlympusRTPAssembler(maximumFrameLength: maximumFrameLength))
    }

    /// The next whole frame the camera sends, after dropping the packets that waited unread.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when no whole frame arrives in time,
    ///   `ViewfinderError/Code/malformedData` for a packet that is not RTP.
    package func nextFrame() async throws(ViewfinderError) -> OlympusRTPAssembler.Frame {
        try await socket.run { () throws(ViewfinderError) -> OlympusRTPAssembler.Frame in try self.receiveFrame() }
    }

    private func receiveFrame() throws(ViewfinderError) -> OlympusRTPAssembler.Frame {
        var buffer = [UInt8](repeating: 0, count: Self.maximumPacketLength)
        // First the packets waiting, dropped without waiting; then the next whole frame.
        var drained = 0
        while drained < Self.maximumDrain, case .camera = try socket.receive(into: &buffer, until: .now) {
            drained += 1
        }
        assembler.withLock { $0.reset() }
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            guard case .camera(let count) = try socket.receive(into: &buffer, until: end) else { continue }
            let packet = buffer[..<count]
            let frame = try assembler.withLock { assembler throws(ViewfinderError) in try assembler.take(packet) }
            if let frame { return frame }
        }
        throw ViewfinderError(.timeout, "the Olympus sent no whole live view frame for \(timeout)")
    }

    /// Closes the socket and stops the thread, once the frame being read (if any) is done.
    package func close() {
        socket.close()
    }
}
