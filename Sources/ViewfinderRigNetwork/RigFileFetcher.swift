import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Fetches one file a host listed: an HTTP GET with the host's token, streamed into a file, checked against the
/// size and SHA-256 digest the host gave.
///
/// The file is written as `PATH.part` and renamed to `PATH` only once whole and checked, so a path that exists holds
/// the whole file. Each read has a deadline: a host that stops sending fails the fetch, however large the file.
enum RigFileFetcher {
    /// The longest answer head read.
    static let maximumHeadSize = 16 * 1024

    /// Fetches `file` with `token` into `path`, blocking the calling thread.
    ///
    /// - Throws: `ViewfinderError`: `connectionFailed` or `timeout` when the host does not answer, `notFound` for an
    ///   answer other than 200, `malformedData` for a file of another size or digest, `io` when it cannot be written.
    static func fetch(_ file: RigWire.File, token: String, to path: String, timeout: Duration) throws(ViewfinderError) {
        guard let url = HTTPURL(file.url) else {
            throw ViewfinderError(.malformedData, "the host listed \(file.name) at \(file.url), not an http:// URL")
        }
        let partial = path + ".part"
        do {
            let socket = try Socket.connect(host: url.host, port: url.port, timeout: timeout)
            defer { socket.close() }
            let request = url.getRequest(with: [.init("X-Viewfinder-Token", token)])
            try socket.send(request.encoded(), until: .now + timeout, while: "asking for \(file.name)")
            var buffer = [UInt8](repeating: 0, count: 256 * 1024)
            var head: [UInt8] = []
            var body: ArraySlice<UInt8> = []
            while true {
                let count = try buffer.withUnsafeMutableBytes { raw throws(SocketError) in
                    try socket.receive(into: raw, timeout: timeout, while: "reading \(file.name)")
                }
                head += buffer[..<count]
                if let end = HTTPHead.end(in: head) {
                    body = head[end...]
                    head = Array(head[..<end])
                    break
                }
                guard head.count < maximumHeadSize else {
                    throw ViewfinderError(.malformedData, "the host's answer for \(file.name) has no end to its head")
                }
            }
            let length = try checkHead(head, of: file)
            guard let output = try? FileDescriptor.open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC) else {
                throw ViewfinderError.system(errno: errno, "creating \(partial)")
            }
            var hash = SHA256()
            var written: UInt64 = 0
            func keep(_ bytes: ArraySlice<UInt8>) throws(ViewfinderError) {
                guard written + UInt64(bytes.count) <= length else {
                    throw ViewfinderError(.malformedData, "the host sent more of \(file.name) than its length")
                }
                do {
                    try bytes.withUnsafeBytes { try output.writeAll($0) }
                } catch let error as Errno {
                    throw ViewfinderError.system(errno: error.rawValue, "writing \(partial)")
                } catch {
                    throw ViewfinderError(.io, "writing \(partial): \(error)")
                }
                hash.update(bytes)
                written += UInt64(bytes.count)
            }
            try keep(body)
            while written < length {
                let count = try buffer.withUnsafeMutableBytes { raw throws(SocketError) in
                    try socket.receive(into: raw, timeout: timeout, while: "reading \(file.name)")
                }
                try keep(buffer[..<count])
            }
            let digest = SHA256.hexadecimal(hash.finalize())
            guard digest == file.sha256.lowercased() else {
                throw ViewfinderError(
                    .malformedData,
                    "\(file.name) arrived with SHA-256 \(digest), not the \(file.sha256) its host listed")
            }
            guard rename(partial, path) == 0 else { throw ViewfinderError.system(errno: errno, "renaming \(partial)") }
        } catch let error as ViewfinderError {
            unlink(partial)
            throw error
        } catch let error as SocketError {
            unlink(partial)
            if case .closedByPeer = error.reason {
                throw ViewfinderError(.disconnected, "the host closed the connection before all of \(file.name) came")
            }
            throw ViewfinderError(error)
        } catch {
            unlink(partial)
            throw ViewfinderError(.io, "could not fetch \(file.name): \(error)")
        }
    }

    /// Checks an answer's head: status 200 and the length the host listed; returns the length.
    private static func checkHead(_ head: [UInt8], of file: RigWire.File) throws(ViewfinderError) -> UInt64 {
        guard let answer = try? HTTPHead(parsing: head), answer.startLine.hasPrefix("HTTP/1.") else {
            throw ViewfinderError(.malformedData, "the host's answer for \(file.name) is not HTTP")
        }
        guard answer.startWords.dropFirst().first == "200" else {
            throw ViewfinderError(
                .notFound, "the host answered \(answer.startLine.dropFirst(9).prefix(120)) for \(file.name)")
        }
        let length = answer["content-length"].flatMap { UInt64($0) }
        guard let length, length == file.size else {
            throw ViewfinderError(
                .malformedData,
                "the host offers \(file.name) with \(length.map { "\($0) bytes" } ?? "no length"), not the "
                    + "\(file.size) bytes it listed")
        }
        return length
    }
}
