import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSystem

/// A Sony's live view: the HTTP stream at the URL `startLiveview` gives, read on a thread of its own only while a
/// frame is asked for.
///
/// The camera sends packets as fast as it makes frames; those that arrived since the last frame was asked for are
/// read through and dropped, and the next whole frame to arrive is the one returned, so a slow consumer sees the
/// camera's latest picture rather than a growing backlog.
package final class SonyRemoteLiveView: Sendable {
    /// The most bytes waiting that are read through and dropped before a frame is awaited; a flood beyond is read
    /// as it comes.
    static let maximumDrain = 16 << 20
    /// The most bytes one receive reads.
    static let receiveLength = 256 * 1024

    private let socket: Socket
    private let thread: IOThread
    private let timeout: Duration
    private let reader: Locked<SonyRemoteLiveViewReader>
    /// The buffer frames are received into, kept from one frame to the next (a fresh one each frame cost a
    /// quarter of a megabyte mapped and zeroed); taken out while a frame is received.
    private let spareBuffer = Locked<[UInt8]>([])
    private let peer: String

    /// Opens the stream at `url`, its head read within `timeout`, each frame awaited at most `timeout` and at most
    /// `maximumFrameLength` bytes long.
    ///
    /// - Throws: `ViewfinderError`: `malformedData` for an answer that is not a 200 or is chunked, or the
    ///   connection's error.
    package static func open(
        _ url: HTTPURL, peer: String, timeout: Duration, maximumFrameLength: Int
    ) async throws(ViewfinderError) -> SonyRemoteLiveView {
        let thread: IOThread
        do {
            thread = try IOThread(name: "sony-remote-liveview")
        } catch {
            throw ViewfinderError(.io, "cannot start live view's thread: \(error)")
        }
        do throws(ViewfinderError) {
            let answer = try await HTTPClient.run(on: thread, peer: peer) {
                () throws(ViewfinderError) -> HTTPClient.OpenAnswer in
                try HTTPClient.open(
                    url.getRequest(), host: url.host, port: url.port, deadline: .now + timeout,
                    activity: "opening the live view stream of \(peer)")
            }
            guard answer.status == 200, answer.head["transfer-encoding"] == nil else {
                answer.socket.close()
                throw ViewfinderError(
                    .malformedData,
                    "\(peer) answered its live view stream with HTTP \(answer.status), not a plain 200")
            }
            var reader = SonyRemoteLiveViewReader(maximumFrameLength: maximumFrameLength)
            do throws(ViewfinderError) {
                _ = try reader.take(answer.start)
            } catch {
                answer.socket.close()
                throw error
            }
            return SonyRemoteLiveView(
                socket: answer.socket, thread: thread, timeout: timeout, reader: reader, peer: peer)
        } catch {
            thread.stop()
            throw error
        }
    }

    private init(
        socket: Socket, thread: IOThread, timeout: Duration, reader: SonyRemoteLiveViewReader,
        peer: String
    ) {
        self.socket = socket
        self.thread = thread
        self.timeout = timeout
        self.reader = Locked(reader)
        self.peer = peer
    }

    /// The next whole frame the camera sends, after reading through and dropping the packets that waited unread.
    ///
    /// - Throws: `ViewfinderError`: `timeout` when no whole frame arrives in time, `malformedData` for a packet out
    ///   of form, `disconnected` when the camera ends the stream.
    package func nextFrame() async throws(ViewfinderError) -> SonyRemoteLiveViewReader.Frame {
        try await HTTPClient.run(on: thread, peer: peer) {
            () throws(ViewfinderError) -> SonyRemoteLiveViewReader.Frame in
            try self.receiveFrame()
        }
    }

    private func receiveFrame() throws(ViewfinderError) -> SonyRemoteLiveViewReader.Frame {
        var buffer = spareBuffer.withLock { spare in
            defer { spare = [] }
            return spare
        }
        if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: Self.receiveLength) }
        defer { spareBuffer.withLock { [buffer] in $0 = buffer } }
        let activity = "receiving live view from \(peer)"
        // First the bytes waiting, read through without waiting and their frames dropped; then the next frame.
        var drained = 0
        while drained < Self.maximumDrain {
            let outcome = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SocketError) in try socket.receiveNow(into: raw, while: activity) }
            }
            guard let count = try outcome.mapError(ViewfinderError.init).get(), count > 0 else { break }
            _ = try reader.withLock { reader throws(ViewfinderError) in try reader.take(buffer[..<count])
            }
            drained += count
        }
        let end = ContinuousClock.now + timeout
        while true {
            guard ContinuousClock.now < end else {
                throw ViewfinderError(.timeout, "\(peer) sent no whole live view frame for \(timeout)")
            }
            guard
                let count = try HTTPClient.receive(
                    on: socket, into: &buffer, until: end, activity: activity)
            else {
                throw ViewfinderError(.disconnected, "\(peer) ended its live view stream")
            }
            let frame = try reader.withLock { reader throws(ViewfinderError) in
                try reader.take(buffer[..<count])
            }
            if let frame { return frame }
        }
    }

    /// Ends the stream and stops the thread: a frame being awaited ends at once.
    package func close() {
        socket.shutdown()
        thread.stop { [socket] in socket.close() }
    }
}
