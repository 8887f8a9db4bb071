import BenchmarkSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The least a client can do for Fujifilm's WiFi live view: start remote capture with a bare session, then read each
/// frame the camera pushes on its live view port with one copy and append its JPEG to a file, nothing else.
///
/// Its CPU per frame is the floor of any client that keeps the frames, as gphoto2 --capture-movie and the
/// benchmark's Viewfinder subscriber do: what the kernel charges for receiving and writing the bytes.
final class FujiFloorClient {
    private let command: Socket
    private var liveView: Socket?
    private var transactionID: UInt32 = 0
    /// Bytes read from the live view socket and not yet used.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 << 20, alignment: 16)

    /// Connects to the command port, sends the init, opens a session and starts remote capture, which opens the live
    /// view port `port + 2`.
    init(port: UInt16) throws {
        command = try Socket.connect(host: "127.0.0.1", port: port, timeout: .seconds(5))
        command.setNoDelay()
        try command.send(
            FujiWiFiPacket.initRequest(guid: .random(), name: "floor"), timeout: .seconds(5), while: "init")
        let ack = try read(from: command, count: 8)
        let length = Int(ack.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        guard length >= 8, length <= 1024 else { throw BenchmarkError("an init answer of \(length) bytes") }
        _ = try read(from: command, count: length - 8)
        guard try transact(.openSession, [1]) == 0x2001 else { throw BenchmarkError("OpenSession failed") }
        guard try transact(.initiateOpenCapture, [0, 0]) == 0x2001 else {
            throw BenchmarkError("InitiateOpenCapture failed")
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while liveView == nil {
            do {
                liveView = try Socket.connect(host: "127.0.0.1", port: port + 2, timeout: .seconds(5))
            } catch {
                guard ContinuousClock.now < deadline else { throw BenchmarkError("no live view port: \(error)") }
                usleep(20_000)
            }
        }
    }

    deinit {
        liveView?.close()
        command.close()
        buffer.deallocate()
    }

    /// Reads frames for `seconds`, appending each JPEG to `file`.
    ///
    /// - Returns: The frames per second and the process's CPU seconds per frame.
    func measure(seconds: Double, appendingTo file: Int32) throws -> (fps: Double, cpuPerFrame: Double) {
        try readFrame(appendingTo: file)
        var frames = 0
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        while start.duration(to: .now).inSeconds < seconds {
            try readFrame(appendingTo: file)
            frames += 1
        }
        let elapsed = start.duration(to: .now).inSeconds
        let cpu = processCPUSeconds() - cpuBefore
        return (Double(frames) / elapsed, cpu / Double(max(frames, 1)))
    }

    /// Reads one frame, [u32 length including itself][14-byte header][JPEG], and appends the JPEG to `file`.
    private func readFrame(appendingTo file: Int32) throws {
        guard let liveView else { throw BenchmarkError("live view is not open") }
        try receive(0..<4, from: liveView)
        let length = Int(buffer.loadUnaligned(as: UInt32.self))
        guard length > 18, length <= buffer.count else { throw BenchmarkError("a frame of \(length) bytes") }
        try receive(4..<length, from: liveView)
        _ = write(file, buffer.baseAddress! + 18, length - 18)
    }

    /// Fills `range` of the buffer from `socket`.
    private func receive(_ range: Range<Int>, from socket: Socket) throws {
        var offset = range.lowerBound
        while offset < range.upperBound {
            offset += try socket.receive(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<range.upperBound]), timeout: .seconds(5),
                while: "reading live view")
        }
    }

    /// Runs one transaction without a data phase on the command connection and returns the response code, skipping
    /// any data container.
    private func transact(_ operation: PTPOperationCode, _ parameters: [UInt32]) throws -> UInt16 {
        transactionID &+= 1
        try command.send(
            FujiWiFiPacket.container(
                .command, code: operation.rawValue, transactionID: transactionID, parameters: parameters),
            timeout: .seconds(5), while: "request")
        while true {
            let head = try read(from: command, count: 12)
            let header = try FujiWiFiPacket.Header(decoding: head)
            _ = try read(from: command, count: header.payloadLength)
            if header.kind == .response { return header.code }
        }
    }

    /// Reads exactly `count` bytes from `socket`.
    private func read(from socket: Socket, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            received += try bytes.withUnsafeMutableBytes {
                try socket.receive(
                    into: UnsafeMutableRawBufferPointer(rebasing: $0[received...]), timeout: .seconds(5),
                    while: "reading")
            }
        }
        return bytes
    }
}
