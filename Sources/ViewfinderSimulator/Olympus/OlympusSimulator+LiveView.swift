import ViewfinderImaging
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension OlympusSimulator {
    /// The most bytes of JPEG in one RTP packet; with the headers a packet stays under the 4096 bytes `olympuswifi`
    /// reads.
    package static let rtpPayloadLength = 1400
    /// The RTP payload type the simulator marks its packets with (dynamic, as for JPEG over RTP without RFC 2435).
    static let rtpPayloadType: UInt8 = 96

    /// The RTP packets of one live view frame: the JPEG cut into payloads, the first with a header extension that
    /// carries the orientation (function 4, EXIF 1), the last with the marker bit; sequence numbers from `sequence`.
    package static func rtpPackets(of jpeg: [UInt8], sequence: UInt16, timestamp: UInt32) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var start = 0
        var sequence = sequence
        while start < jpeg.count {
            let end = min(start + rtpPayloadLength, jpeg.count)
            let first = start == 0
            let last = end == jpeg.count
            var packet: [UInt8] = [first ? 0x90 : 0x80, (last ? 0x80 : 0) | rtpPayloadType]
            packet += withUnsafeBytes(of: sequence.bigEndian) { Array($0) }
            packet += withUnsafeBytes(of: timestamp.bigEndian) { Array($0) }
            packet += [0x4F, 0x4C, 0x59, 0x4D]  // SSRC
            if first {
                // Profile, length in words, then function 4 (orientation) of one word: EXIF 1 in its last byte.
                packet += [0x00, 0x00, 0x00, 0x02, 0x00, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01]
            }
            packet += jpeg[start..<end]
            packets.append(packet)
            start = end
            sequence &+= 1
        }
        return packets
    }

    /// Sends a frame of the test scene ten times a second, as RTP packets, to the client that started live view,
    /// while the camera is in recording mode, until the client stops it or the simulator stops.
    func streamLiveView() {
        guard let socket = try? Socket.udp() else { return }
        defer { socket.close() }
        var frame: UInt32 = 0
        var sequence: UInt16 = 0
        while !state.withLock({ $0.stopping }) {
            let target = state.withLock { state in state.mode == "rec" ? state.liveView : nil }
            if let target,
                let picture = try? TestScene.render(
                    width: 320, height: 240, lighting: .init(), time: Double(frame) / 10),
                let jpeg = try? encoder.encode(picture, quality: 70)
            {
                frame &+= 1
                let packets = Self.rtpPackets(of: jpeg, sequence: sequence, timestamp: frame &* 9000)
                sequence &+= UInt16(truncatingIfNeeded: packets.count)
                for packet in packets {
                    try? socket.send(packet, to: target, timeout: .milliseconds(100), while: "sending live view")
                }
            }
            usleep(100_000)
        }
    }
}
