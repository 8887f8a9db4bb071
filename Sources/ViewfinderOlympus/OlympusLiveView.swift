import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderSystem

/// An Olympus's live view: the UDP socket its RTP packets arrive on, read on a thread of its own only while a frame
/// is asked for.
///
/// The camera sends packets as fast as it makes frames; those that arrived since the last frame was asked for are
/// dropped unread, and the next whole frame to arrive is the one returned, so a slow consumer sees the camera's
/// latest picture rather than a growing backlog. Packets from any address but the camera's are ignored.
package final class OlympusLiveView: Sendable {
    /// The largest packet read: the most UDP carries.
    static let maximumPacketLength = 65536
    /// The most waiting packets dropped before a frame is read; a flood beyond is read as it comes.
    static let maximumDrain = 4096

    private let socket: Socket
    private let thread: IOThread
    private let camera: SocketAddress?
    private let timeout: Duration
    private let assembler: Locked<OlympusRTPAssembler>

    /// The port packets arrive on, for `startliveview`.
    package let port: UInt16

    /// Opens a socket on `port` (a free one for 0) for the packets of the camera at `host`, a frame awaited at most
    /// `timeout` and at most `maximumFrameLength` bytes long.
    ///
    /// - Throws: `ViewfinderError` when no socket or thread can be had.
    package init(host: String, port: UInt16, timeout: Duration, maximumFrameLength: Int) throws(ViewfinderError) {
        do {
            socket = try Socket.udp(port: port)
        } catch {
            throw ViewfinderError(error)
        }
        do {
            thread = try IOThread(name: "olympus-liveview")
        } catch {
            socket.close()
            throw ViewfinderError(.io, "cannot start live view's thread: \(error)")
        }
        camera = try? SocketAddress(numeric: host, port: 0)
        self.timeout = timeout
        assembler = Locked(OlympusRTPAssembler(maximumFrameLength: maximumFrameLength))
        self.port = socket.localPort
    }

    /// The next whole frame the camera sends, after dropping the packets that waited unread.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when no whole frame arrives in time,
    ///   `ViewfinderError/Code/malformedData` for a packet that is not RTP.
    package func nextFrame() async throws(ViewfinderError) -> OlympusRTPAssembler.Frame {
        try await HTTPClient.run(on: thread, peer: "the Olympus's live view") {
            () throws(ViewfinderError) -> OlympusRTPAssembler.Frame in
            try self.receiveFrame()
        }
    }

    private func receiveFrame() throws(ViewfinderError) -> OlympusRTPAssembler.Frame {
        var buffer = [UInt8](repeating: 0, count: Self.maximumPacketLength)
        // First the packets waiting, dropped without waiting; then the next whole frame.
        var drained = 0
        while drained < Self.maximumDrain, try receive(into: &buffer, until: .now) != nil {
            drained += 1
        }
        assembler.withLock { $0.reset() }
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            guard let count = try receive(into: &buffer, until: end) else { continue }
            let packet = buffer[..<count]
            let frame = try assembler.withLock { assembler throws(ViewfinderError) in try assembler.take(packet) }
            if let frame { return frame }
        }
        throw ViewfinderError(.timeout, "the Olympus sent no whole live view frame for \(timeout)")
    }

    /// Receives one packet from the camera by `deadline`: its length, or `nil` for none or a stranger's.
    private func receive(
        into buffer: inout [UInt8], until deadline: ContinuousClock.Instant
    ) throws(ViewfinderError) -> Int? {
        let outcome = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SocketError) in
                try socket.receiveDatagram(into: raw, until: deadline, while: "receiving live view")
            }
        }
        let received: Socket.ReceivedDatagram?
        do {
            received = try outcome.get()
        } catch {
            throw ViewfinderError(error)
        }
        guard let received, camera.map({ $0.host == received.sender.host }) ?? true else { return nil }
        guard !received.isTruncated else {
            throw ViewfinderError(.malformedData, "a live view packet from the Olympus was longer than UDP carries")
        }
        return received.count
    }

    /// Closes the socket and stops the thread, once the frame being read (if any) is done.
    package func close() {
        thread.stop { [socket] in socket.close() }
    }
}
