import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderSystem

/// A Lumix's live view: the UDP socket its datagrams arrive on, read on the connection's live view thread at the pace
/// frames are asked for.
///
/// The camera sends datagrams as fast as it makes them; those that arrived since the last frame was asked for are
/// dropped but the newest, so a slow consumer sees the camera's latest picture rather than a growing backlog.
/// Datagrams from any address but the camera's are ignored.
final class LumixLiveView: HTTPCameraLiveView {
    /// The most datagrams read for one frame; the newest of them is the frame.
    static let maximumDrain = 64

    private let socket: CameraDatagramSocket
    private let timeout: Duration

    /// The port datagrams arrive on, for `startstream`.
    var port: UInt16 { socket.port }

    /// Opens a socket on a free port for the datagrams of the camera at `host`, read on `thread`, each awaited at
    /// most `timeout`.
    ///
    /// - Throws: `ViewfinderError` when no socket can be had.
    init(host: String, thread: IOThread, timeout: Duration) throws(ViewfinderError) {
        socket = try CameraDatagramSocket(host: host, port: 0, peer: "the Lumix", thread: thread)
        self.timeout = timeout
    }

    /// The newest JPEG the camera sent: the last of the datagrams waiting, or the next to arrive.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when none arrives in time, `ViewfinderError/Code/malformedData`
    ///   for a datagram cut short or without a JPEG.
    func nextImage() async throws(ViewfinderError) -> [UInt8] {
        try await socket.run { () throws(ViewfinderError) -> [UInt8] in
            try self.socket.withReceiveBuffer { buffer throws(ViewfinderError) in
                try self.receiveNewest(into: &buffer)
            }
        }
    }

    private func receiveNewest(into buffer: inout [UInt8]) throws(ViewfinderError) -> [UInt8] {
        // The JPEG of the newest datagram from the camera, or why it holds none, cut out as it arrives (the buffer
        // takes the next): a newer one replaces it.
        var newest: Result<[UInt8], ViewfinderError>?
        var drained = 0
        let end = ContinuousClock.now + timeout
        // The datagrams waiting, read without waiting; when none is the camera's, a wait for the next, then again.
        while true {
            let arrival = try socket.receive(into: &buffer, until: .now)
            if arrival != .none {
                drained += 1
                if case .camera(let count) = arrival {
                    let datagram = buffer[..<count]
                    newest = Result { () throws(ViewfinderError) in
                        Array(try LumixLiveViewDatagram.jpeg(in: datagram))
                    }
                }
                // A flood is read no further than this; what arrives meanwhile waits for the next frame.
                if drained < Self.maximumDrain { continue }
            }
            if let newest {
                return try newest.get()
            }
            guard drained < Self.maximumDrain, ContinuousClock.now < end, try socket.waitForDatagram(until: end) else {
                throw ViewfinderError(.timeout, "the Lumix sent no live view frame for \(timeout)")
            }
        }
    }

    /// Closes the socket, once the frame being read (if any) is done.
    func close() {
        socket.close()
    }
}
