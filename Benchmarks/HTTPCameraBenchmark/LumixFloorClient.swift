import BenchmarkSupport

/// The least a client can do for a Lumix's live view: ask for it with two bare requests, then receive each datagram
/// with one blocking call and find the JPEG in it (its start-of-image marker, its end-of-image marker at the end),
/// nothing else but the `getstate` a Lumix needs every few seconds to keep streaming.
final class LumixFloorClient {
    /// How often the stream is kept alive; the camera stops after 10 s without a request.
    static let keepAliveInterval = Duration.seconds(5)

    private let floor: LiveViewFloor
    private let host: String
    private let port: UInt16
    private var keptAlive = ContinuousClock.now

    /// Switches the simulated Lumix at `host`:`port` to recording mode and asks it to stream to a port of its own.
    init(host: String, port: UInt16) throws {
        floor = try LiveViewFloor()
        self.host = host
        self.port = port
        _ = try LiveViewFloor.get("/cam.cgi?mode=camcmd&value=recmode", host: host, port: port)
        _ = try LiveViewFloor.get("/cam.cgi?mode=startstream&value=\(floor.port)", host: host, port: port)
    }

    deinit {
        _ = try? LiveViewFloor.get("/cam.cgi?mode=stopstream", host: host, port: port)
    }

    /// Reads frames for `seconds` after the first.
    ///
    /// - Returns: The frames per second and the process's CPU seconds per frame.
    func measure(seconds: Double) throws -> (fps: Double, cpuPerFrame: Double) {
        try LiveViewFloor.measure(seconds: seconds) { _ = try readFrame() }
    }

    /// Receives one datagram and finds its JPEG; the JPEG's range in the datagram.
    private func readFrame() throws -> Range<Int> {
        if keptAlive.duration(to: .now) >= Self.keepAliveInterval {
            _ = try LiveViewFloor.get("/cam.cgi?mode=getstate", host: host, port: port)
            keptAlive = .now
        }
        let count = try floor.receive()
        let datagram = floor.datagram
        var start = 0
        while start + 2 < count, !(datagram[start] == 0xFF && datagram[start + 1] == 0xD8) { start += 1 }
        guard start + 4 <= count, datagram[count - 2] == 0xFF, datagram[count - 1] == 0xD9 else {
            throw BenchmarkFailure("a live view datagram without a whole JPEG")
        }
        return start..<count
    }
}
