import BenchmarkSupport
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// What the floor rows share: the least any client of a camera that streams live view over UDP must spend, a bare
/// blocking socket read one datagram per call into a buffer kept from the first frame, and a bare HTTP request to
/// start the stream.
///
/// Its CPU per frame is what the kernel charges for receiving the datagrams and the few instructions that find the
/// frame in them: no client that receives every frame can spend less.
final class LiveViewFloor {
    /// The longest datagram read.
    static let datagramLength = 65536

    private let descriptor: CInt
    /// The buffer each datagram is received into.
    let datagram = UnsafeMutableRawBufferPointer.allocate(byteCount: datagramLength, alignment: 16)
    /// The port datagrams arrive on.
    let port: UInt16

    /// Opens a blocking UDP socket on a free port of every address, whose reads give up after 5 s.
    init() throws {
        let descriptor = socket(AF_INET, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkFailure("no UDP socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(descriptor)
            throw BenchmarkFailure("cannot bind a UDP socket: errno \(errno)")
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: local.sin_port)
    }

    deinit {
        Glibc.close(descriptor)
        datagram.deallocate()
    }

    /// Receives one datagram into ``datagram``, blocking; its length.
    func receive() throws -> Int {
        while true {
            let count = recv(descriptor, datagram.baseAddress, datagram.count, 0)
            if count >= 0 { return count }
            guard errno == EINTR else { throw BenchmarkFailure("no live view datagram: errno \(errno)") }
        }
    }

    /// Reads one frame with `readFrame`, then frames for `seconds`, blocking the calling thread.
    ///
    /// - Returns: The frames per second and the process's CPU seconds per frame.
    static func measure(seconds: Double, _ readFrame: () throws -> Void) throws -> (fps: Double, cpuPerFrame: Double) {
        try readFrame()
        var frames = 0
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        while start.duration(to: .now) < .seconds(seconds) {
            try readFrame()
            frames += 1
        }
        let elapsed = start.duration(to: .now)
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let cpu = processCPUSeconds() - cpuBefore
        return (Double(frames) / wall, cpu / Double(max(frames, 1)))
    }

    /// Sends a bare GET of `target` to `host`:`port` on a connection of its own and returns the answer's body.
    static func get(_ target: String, host: String, port: UInt16) throws -> [UInt8] {
        let request = HTTPHead(
            startLine: "GET \(target) HTTP/1.1",
            fields: [.init("Host", HostPort.text(host, port: port)), .init("Connection", "close")])
        let answer = try HTTPClient.exchange(
            request, host: host, port: port, deadline: .now + .seconds(5), maximumBodyLength: 1 << 20,
            activity: "sending \(target)")
        guard answer.status == 200 else { throw BenchmarkFailure("\(target) answered HTTP \(answer.status)") }
        return answer.body
    }
}
