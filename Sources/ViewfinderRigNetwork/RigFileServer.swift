import ViewfinderCore
import ViewfinderHTTP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Serves an agent's pictures over HTTP: `GET /files/TAKE/NAME`, streamed from the agent's folder of takes.
///
/// It is the tool's one HTTP server (`HTTPServer`) with its one policy: every request needs the server's token
/// (the agent gives it in its state record), names this host, and comes within the connection bounds. A file goes
/// out in chunks with its length in advance, each chunk with its deadline, however large it is. Names are checked
/// before any file is opened: a take and a file are each 1 to 64 letters, digits, `-`, `_` and `.`, not starting
/// with `.`, so no request reaches outside the folder.
final class RigFileServer: Sendable {
    /// The folder that holds a folder per take.
    let storage: String
    private let server: HTTPServer
    /// How long a client may take no data before the transfer is dropped.
    static let sendTimeout = Duration.seconds(30)

    /// A server of `storage` on `bindAddress:port` (0 for a free port), not started yet.
    init(storage: String, bindAddress: String, port: UInt16, allowedHosts: [String]) throws {
        self.storage = storage
        var configuration = HTTPServer.Configuration()
        configuration.bindAddress = bindAddress
        configuration.port = port
        configuration.maximumConnections = 16
        configuration.allowedHosts = allowedHosts
        configuration.openPaths = []
        server = try HTTPServer(name: "rig agent's file server", configuration: configuration)
    }

    /// Starts serving; returns the port.
    @discardableResult
    func start() throws -> UInt16 {
        try server.start { [storage] exchange in Self.serve(exchange, from: storage) }
    }

    /// Stops serving and ends every transfer.
    func stop() {
        server.stop()
    }

    /// The token every request needs.
    var token: String { server.token }

    /// The port served on.
    var port: UInt16 { server.port }

    /// The URL path of a file.
    static func path(take: String, name: String) -> String { "/files/\(take)/\(name)" }

    private static func serve(_ exchange: HTTPExchange, from storage: String) {
        guard exchange.request.method == "GET" || exchange.isHead else {
            exchange.respond(.text("405 Method Not Allowed", "The files are read with GET."), within: sendTimeout)
            return
        }
        let parts = exchange.request.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "files", RigWire.isValidName(String(parts[2])),
            RigWire.isValidName(String(parts[3]))
        else {
            exchange.respond(
                .text("404 Not Found", "Files are at /files/TAKE/NAME, each a name of letters, digits, '-', '_', '.'."),
                within: sendTimeout)
            return
        }
        let path = "\(storage)/\(parts[2])/\(parts[3])"
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) else {
            exchange.respond(
                .text("404 Not Found", "This host keeps no \(parts[3]) in take \(parts[2])."), within: sendTimeout)
            return
        }
        var status = stat()
        guard fstat(file.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            exchange.respond(.text("404 Not Found", "\(parts[3]) is not a file."), within: sendTimeout)
            return
        }
        let size = UInt64(status.st_size)
        let head = exchange.head(
            status: "200 OK", contentType: "application/octet-stream", length: .bytes(size),
            headers: [("Content-Disposition", HTTPResponse.attachment(named: String(parts[3])))])
        do throws(SocketError) {
            let writer = try HTTPBodyWriter(
                socket: exchange.socket, head: head, length: .bytes(size), until: .now + sendTimeout)
            guard !exchange.isHead else { return }
            var chunk = [UInt8](repeating: 0, count: 256 * 1024)
            var sent: UInt64 = 0
            while sent < size {
                let count = chunk.withUnsafeMutableBytes { buffer in
                    (try? file.read(
                        into: UnsafeMutableRawBufferPointer(
                            rebasing: buffer.prefix(Int(min(UInt64(buffer.count), size - sent)))))) ?? -1
                }
                // A file that shrank or cannot be read ends the answer short of its length: the client sees it.
                guard count > 0 else { return }
                try writer.write(Array(chunk[..<count]), until: .now + sendTimeout)
                sent += UInt64(count)
            }
            try writer.finish(until: .now + sendTimeout)
        } catch {
            return
        }
    }
}
