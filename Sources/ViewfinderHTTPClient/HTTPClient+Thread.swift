import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

extension HTTPClient {
    /// Runs blocking `body` on `thread` and returns what it returns, without holding a thread of Swift's pool.
    ///
    /// A caller already running on `thread` (a task that prefers it as its executor, as live view's publisher does)
    /// runs `body` there at once: queued as a job, it would only suspend the task until the thread ran the job and
    /// resumed the task, on the same thread, after the same wait. Jobs queued meanwhile run after it, as they would
    /// after the job.
    ///
    /// - Throws: What `body` throws, or `ViewfinderError/Code/notConnected` naming `peer` once the thread has
    ///   stopped.
    package static func run<Value: Sendable>(
        on thread: IOThread, peer: String, _ body: @escaping @Sendable () throws(ViewfinderError) -> Value
    ) async throws(ViewfinderError) -> Value {
        if thread.isCurrent {
            return try body()
        }
        let outcome: Result<Value, ViewfinderError> = await withCheckedContinuation { continuation in
            let submitted = thread.submit {
                continuation.resume(returning: Result { () throws(ViewfinderError) -> Value in try body() })
            }
            if !submitted {
                continuation.resume(
                    returning: .failure(ViewfinderError(.notConnected, "the connection to \(peer) is closed")))
            }
        }
        return try outcome.get()
    }

    /// A download: what to ask for, from where, and how to read it.
    package struct Download: Sendable {
        /// The request, a GET of the file.
        package var request: HTTPHead
        /// The host to connect to.
        package var host: String
        /// The port to connect to.
        package var port: UInt16
        /// The file's name, for errors.
        package var name: String
        /// The camera, for errors, such as `the Lumix`.
        package var peer: String
        /// The longest each read may take: connecting and the head, then each piece.
        package var timeout: Duration
        /// The most bytes read in one piece.
        package var pieceLength: Int

        /// A download of `name` with `request` from `host`:`port`.
        package init(
            _ request: HTTPHead, host: String, port: UInt16, name: String, peer: String, timeout: Duration,
            pieceLength: Int = 256 * 1024
        ) {
            self.request = request
            self.host = host
            self.port = port
            self.name = name
            self.peer = peer
            self.timeout = timeout
            self.pieceLength = pieceLength
        }
    }

    /// Downloads a file in pieces on `thread`, each handed to `chunkHandler` before the next is read; every read has
    /// the download's timeout, and the answer must say its length.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for an answer that is not a 200 with a length,
    ///   `disconnected` when the camera stops before the end, `timeout` when it stalls, or what `chunkHandler`
    ///   throws.
    package static func download(
        _ download: Download, on thread: IOThread,
        chunkHandler: @escaping @Sendable ([UInt8], CameraTransferProgress) async throws -> Void
    ) async throws {
        let (name, peer, timeout) = (download.name, download.peer, download.timeout)
        let activity = "downloading \(name) from \(peer)"
        let answer = try await run(on: thread, peer: peer) { () throws(ViewfinderError) -> OpenAnswer in
            try open(
                download.request, host: download.host, port: download.port, deadline: .now + timeout,
                activity: activity)
        }
        let socket = answer.socket
        defer { socket.close() }
        guard answer.status == 200, let total = answer.head["content-length"].flatMap({ UInt64($0) }) else {
            throw ViewfinderError(
                .malformedData, "\(peer) answered the download of \(name) with HTTP \(answer.status) and no length")
        }
        var done = UInt64(0)
        var piece = Array(answer.start.prefix(Int(min(total, UInt64(answer.start.count)))))
        while true {
            done += UInt64(piece.count)
            if !piece.isEmpty || done == total {
                try await chunkHandler(piece, CameraTransferProgress(completedByteCount: done, totalByteCount: total))
            }
            guard done < total else { return }
            let wanted = Int(min(UInt64(download.pieceLength), total - done))
            let received = done
            piece = try await run(on: thread, peer: peer) { () throws(ViewfinderError) -> [UInt8] in
                var buffer = [UInt8](repeating: 0, count: wanted)
                guard let count = try receive(on: socket, into: &buffer, until: .now + timeout, activity: activity)
                else {
                    throw ViewfinderError(
                        .disconnected, "\(peer) closed the connection after \(received) of \(name)'s \(total) bytes")
                }
                return Array(buffer[..<count])
            }
        }
    }

    /// `text` with every byte but letters, digits, `/` and `-._~` percent-encoded, for a query.
    package static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return encoded
    }
}
