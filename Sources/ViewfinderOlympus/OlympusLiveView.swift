import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderSystem

/// An Olympus's live view: the UDP socket its RTP packets arrive on, read on the connection's live view thread only
/// while a frame is asked for.
///
/// The camera sends packets as fast as it makes frames; of those that arrived since the last frame was asked for, the
/// newest whole frame is the one returned and the older ones are dropped, or when none is whole, the frame under way
/// (or the next) once it is, so a slow consumer sees the camera's latest picture rather than a growing backlog, and a
/// consumer that asks while a frame arrives loses none. Packets from any address but the camera's are ignored.
package final class OlympusLiveView: HTTPCameraLiveView {
    /// The most waiting packets read without waiting; a flood beyond is read as it comes.
    static let maximumDrain = 4096

    private let socket: CameraDatagramSocket
    private let timeout: Duration
    private let assembler: Locked<OlympusRTPAssembler>

    /// The port packets arrive on, for `startliveview`.
    package var port: UInt16 { socket.port }

    /// Opens a socket on `port` (a free one for 0) for the packets of the camera at `host`, read on `thread`, a
    /// frame awaited at most `timeout` and at most `maximumFrameLength` bytes long.
    ///
    /// - Throws: `ViewfinderError` when no socket can be had.
    package init(
        host: String, port: UInt16, thread: IOThread, timeout: Duration, maximumFrameLength: Int
    ) throws(ViewfinderError) {
        socket = try CameraDatagramSocket(host: host, port: port, peer: "the Olympus", thread: thread)
        self.timeout = timeout
        assembler = Locked(OlympusRTPAssembler(maximumFrameLength: maximumFrameLength))
    }

    /// The newest whole frame among the packets waiting, or else the next whole frame to arrive.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when no whole frame arrives in time,
    ///   `ViewfinderError/Code/malformedData` for a packet that is not RTP.
    package func nextFrame() async throws(ViewfinderError) -> OlympusRTPAssembler.Frame {
        try await socket.run { () throws(ViewfinderError) -> OlympusRTPAssembler.Frame in
            try self.socket.withReceiveBuffer { buffer throws(ViewfinderError) in try self.receiveFrame(into: &buffer) }
        }
    }

    private func receiveFrame(into buffer: inout [UInt8]) throws(ViewfinderError) -> OlympusRTPAssembler.Frame {
        // First the packets waiting, read without waiting: the newest whole frame among them is the one returned.
        var newest: OlympusRTPAssembler.Frame?
        var drained = 0
        while drained < Self.maximumDrain {
            let arrival = try socket.receive(into: &buffer, until: .now)
            guard arrival != .none else { break }
            drained += 1
            if case .camera(let count) = arrival {
                newest = try take(buffer[..<count]) ?? newest
            }
        }
        if let newest { return newest }
        // Then the rest of the frame under way, or the next one: nothing waits now, so each round waits first and
        // then reads what came.
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end, try socket.waitForDatagram(until: end) {
            while ContinuousClock.now < end, case let arrival = try socket.receive(into: &buffer, until: .now),
                arrival != .none
            {
                if case .camera(let count) = arrival, let frame = try take(buffer[..<count]) { return frame }
            }
        }
        throw ViewfinderError(.timeout, "the Olympus sent no whole live view frame for \(timeout)")
    }

    /// Passes one packet to the assembler; the frame it completes, if any.
    private func take(_ packet: ArraySlice<UInt8>) throws(ViewfinderError) -> OlympusRTPAssembler.Frame? {
        try assembler.withLock { assembler throws(ViewfinderError) in try assembler.take(packet) }
    }

    /// Closes the socket, once the frame being read (if any) is done.
    package func close() {
        socket.close()
    }
}
