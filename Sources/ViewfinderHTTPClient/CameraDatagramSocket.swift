import ViewfinderCore
import ViewfinderSystem

/// The UDP socket an HTTP camera's live view arrives on, read on the connection's live view thread, with what it
/// heard from whom.
///
/// Cameras stream live view to a port the client names; a datagram from any address but the camera's is a
/// stranger's, which the reader ignores. The thread outlives the socket: a connection keeps one for every live view
/// it starts (``HTTPCameraLink/liveViewThread()``), and live view's publisher runs on it, so a frame wakes no other
/// thread.
///
/// ```swift
/// let socket = try CameraDatagramSocket(host: "192.168.54.1", port: 0, peer: "the Lumix", thread: liveViewThread)
/// let arrival = try await socket.run { () throws(ViewfinderError) in
///     try socket.withReceiveBuffer { buffer throws(ViewfinderError) in
///         try socket.receive(into: &buffer, until: .now + .seconds(2))
///     }
/// }
/// ```
package final class CameraDatagramSocket: Sendable {
    /// What one read brought.
    package enum Arrival: Sendable, Equatable {
        /// Nothing by the deadline.
        case none
        /// A datagram from an address other than the camera's, ignored.
        case stranger
        /// A datagram from the camera: its length in the buffer.
        case camera(Int)
    }

    /// The longest datagram read: the most UDP carries.
    package static let maximumDatagramLength = 65536

    private let socket: Socket
    private let thread: IOThread
    /// The buffer datagrams are received into, kept from one frame to the next (a fresh one each frame cost 64 KiB
    /// allocated and zeroed); taken out while a read runs.
    private let spareBuffer = Locked<[UInt8]>([])
    private let camera: SocketAddress?
    private let peer: String
    /// What the reads are, for the error once the thread has stopped: made once, not for every frame.
    private let reading: String

    /// The port datagrams arrive on, for the command that starts live view.
    package let port: UInt16

    /// Opens a socket on `port` (a free one for 0) for the datagrams of the camera at `host`, named `peer` in errors,
    /// read on `thread`.
    ///
    /// - Throws: `ViewfinderError` when no socket can be had.
    package init(host: String, port: UInt16, peer: String, thread: IOThread) throws(ViewfinderError) {
        do {
            socket = try Socket.udp(port: port)
        } catch {
            throw ViewfinderError(error)
        }
        self.thread = thread
        camera = try? SocketAddress(numeric: host, port: 0)
        self.peer = peer
        reading = "\(peer)'s live view"
        self.port = socket.localPort
    }

    /// Runs blocking `body`, which reads the socket, on the socket's thread.
    ///
    /// - Throws: What `body` throws, or `ViewfinderError/Code/notConnected` once the socket is closed.
    package func run<Value: Sendable>(
        _ body: @escaping @Sendable () throws(ViewfinderError) -> Value
    ) async throws(ViewfinderError) -> Value {
        try await HTTPClient.run(on: thread, peer: reading, body)
    }

    /// Runs `body` with a buffer of ``maximumDatagramLength`` bytes to receive into, the one the previous read used
    /// when it is free.
    ///
    /// - Throws: What `body` throws.
    package func withReceiveBuffer<Value>(
        _ body: (inout [UInt8]) throws(ViewfinderError) -> Value
    ) throws(ViewfinderError) -> Value {
        var buffer = spareBuffer.withLock { spare in
            defer { spare = [] }
            return spare
        }
        if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: Self.maximumDatagramLength) }
        defer { spareBuffer.withLock { [buffer] in $0 = buffer } }
        return try body(&buffer)
    }

    /// Receives one datagram into `buffer` by `deadline`, blocking the calling thread (the socket's own).
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a datagram from the camera longer than `buffer`, or the
    ///   socket's error.
    package func receive(
        into buffer: inout [UInt8], until deadline: ContinuousClock.Instant
    ) throws(ViewfinderError) -> Arrival {
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
        guard let received else { return .none }
        guard camera.map({ $0.hasSameHost(as: received.sender) }) ?? true else { return .stranger }
        guard !received.isTruncated else {
            throw ViewfinderError(.malformedData, "a live view datagram from \(peer) was longer than UDP carries")
        }
        return .camera(received.count)
    }

    /// Waits until a datagram is there to read or `deadline` passes, blocking the calling thread (the socket's own);
    /// whether one is there.
    ///
    /// A reader that has just found nothing waiting waits with this rather than with ``receive(into:until:)``, which
    /// would ask the socket once more before it waits.
    ///
    /// - Throws: The socket's error.
    package func waitForDatagram(until deadline: ContinuousClock.Instant) throws(ViewfinderError) -> Bool {
        do {
            return try Poll.wait(socket.descriptor, for: Poll.readable, until: deadline) != 0
        } catch {
            throw ViewfinderError(
                SocketError(.system(error), while: "waiting for live view", endpoint: socket.endpoint))
        }
    }

    /// Closes the socket once the reads queued on its thread are done; at once when the thread has stopped.
    package func close() {
        if !thread.submit({ [socket] in socket.close() }) {
            socket.close()
        }
    }
}
