import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#endif

/// The least a client can do for an Olympus's live view: ask for it with two bare requests, then receive each RTP
/// packet with one blocking call and copy its payload into the frame under way, checking the version, the sequence,
/// the marker and the JPEG's ends, nothing else.
final class OlympusFloorClient {
    private let floor: LiveViewFloor
    private let host: String
    private let port: UInt16
    /// The frame under way.
    private let frame = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 << 20, alignment: 16)
    private var previousSequence: UInt16?

    /// Switches the simulated Olympus at `host`:`port` to recording mode and asks it to stream to a port of its own.
    init(host: String, port: UInt16) throws {
        floor = try LiveViewFloor()
        self.host = host
        self.port = port
        _ = try LiveViewFloor.get("/switch_cammode.cgi?mode=rec&lvqty=0640x0480", host: host, port: port)
        _ = try LiveViewFloor.get("/exec_takemisc.cgi?com=startliveview&port=\(floor.port)", host: host, port: port)
    }

    deinit {
        _ = try? LiveViewFloor.get("/exec_takemisc.cgi?com=stopliveview", host: host, port: port)
        frame.deallocate()
    }

    /// Reads frames for `seconds` after the first.
    ///
    /// - Returns: The frames per second and the process's CPU seconds per frame.
    func measure(seconds: Double) throws -> (fps: Double, cpuPerFrame: Double) {
        try LiveViewFloor.measure(seconds: seconds) { _ = try readFrame() }
    }

    /// Receives packets until one ends a whole frame; the frame's length.
    private func readFrame() throws -> Int {
        var length = 0
        var assembling = false
        while true {
            let count = try floor.receive()
            let packet = floor.datagram
            guard count >= 12, packet[0] >> 6 == 2 else { throw BenchmarkFailure("a packet that is not RTP") }
            var start = 12 + 4 * Int(packet[0] & 0x0F)
            if packet[0] & 0x10 != 0, start + 4 <= count {
                start += 4 + 4 * (Int(packet[start + 2]) << 8 | Int(packet[start + 3]))
            }
            let end = count - (packet[0] & 0x20 != 0 ? Int(packet[count - 1]) : 0)
            guard start <= end else { throw BenchmarkFailure("an RTP packet out of form") }
            let sequence = UInt16(packet[2]) << 8 | UInt16(packet[3])
            if let previousSequence, sequence != previousSequence &+ 1 { assembling = false }
            previousSequence = sequence
            if end - start >= 2, packet[start] == 0xFF, packet[start + 1] == 0xD8 {
                assembling = true
                length = 0
            }
            if assembling {
                if length + end - start <= frame.count {
                    (frame.baseAddress! + length).copyMemory(from: packet.baseAddress! + start, byteCount: end - start)
                    length += end - start
                } else {
                    assembling = false
                }
            }
            guard packet[1] & 0x80 != 0, assembling else { continue }
            if length >= 4, frame[length - 2] == 0xFF, frame[length - 1] == 0xD9 { return length }
            assembling = false
        }
    }
}
