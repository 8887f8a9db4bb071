import ViewfinderCore
import ViewfinderSystem

/// A Lumix's live view: the UDP socket its datagrams arrive on, read on a thread of its own at the pace frames are
/// asked for.
///
/// The camera sends datagrams as fast as it makes them; those that arrived since the last frame was asked for are
/// dropped but the newest, so a slow consumer sees the camera's latest picture rather than a growing backlog.
/// Datagrams from any address but the camera's are ignored.
final class LumixLiveView: Sendable {
    /// The largest datagram: the most UDP carries.
    static let maximumDatagramLength = 65536
    /// The most datagrams read for one frame; the newest of them is the frame.
    static let maximumDrain = 64

    private let socket: Socket
    private let thread: IOThread
    private let camera: SocketAddress?
    private let timeout: Duration

    /// The port datagrams arrive on, for `startstream`.
    let port: UInt16

    /// Opens a socket on a free port for the datagrams of the camera at `host`, each awaited at most `timeout`.
    ///
    /// - Throws: `ViewfinderError` when no socket or thread can be had.
    init(host: String, timeout: Duration) throws(ViewfinderError) {
        do {
            socket = try Socket.udp()
        } catch {
            throw ViewfinderError(error)
        }
        do {
            thread = try IOThread(name: "lumix-liveview")
        } catch {
            socket.close()
            throw ViewfinderError(.io, "cannot start live view's thread: \(error)")
        }
        camera = try? SocketAddress(numeric: host, port: 0)
        self.timeout = timeout
        port = socket.localPort
    }

    /// The newest JPEG the camera sent: the last of the datagrams waiting, or the next to arrive.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when none arrives in time, `ViewfinderError/Code/malformedData`
    ///   for a datagram cut short or without a JPEG.
    func nextImage() async throws(ViewfinderError) -> [UInt8] {
        try await LumixConnection.run(on: thread) { () throws(ViewfinderError) -> [UInt8] in
            try self.receiveNewest()
        }
    }

    private func receiveNewest() throws(ViewfinderError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.maximumDatagramLength)
        var newest: [UInt8]?
        var drained = 0
        // First the datagrams waiting, without waiting; then, when none was, the next one.
        var deadline = ContinuousClock.now
        let end = deadline + timeout
        while true {
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
            if let received {
                drained += 1
                if camera.map({ $0.host == received.sender.host }) ?? true {
                    guard !received.isTruncated else {
                        throw ViewfinderError(
                            .malformedData, "a live view datagram from the Lumix was longer than UDP carries")
                    }
                    newest = Array(buffer[..<received.count])
                    // Drain what else waits without waiting.
                    deadline = .now
                }
                // A flood is read no further than this; what arrives meanwhile waits for the next frame.
                if drained < Self.maximumDrain { continue }
            }
            if let newest {
                return Array(try LumixLiveViewDatagram.jpeg(in: newest[...]))
            }
            guard drained < Self.maximumDrain, ContinuousClock.now < end else {
                throw ViewfinderError(.timeout, "the Lumix sent no live view frame for \(timeout)")
            }
            deadline = end
        }
    }

    /// Closes the socket and stops the thread, once the frame being read (if any) is done.
    func close() {
        thread.stop { [socket] in socket.close() }
    }
}
