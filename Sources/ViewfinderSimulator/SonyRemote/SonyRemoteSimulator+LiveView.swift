import ViewfinderImaging
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension SonyRemoteSimulator {
    /// The path of the live view stream on its port.
    static let liveViewPath = "/liveview/liveviewstream"

    /// One packet of the live view stream: the 8-byte common header (0xFF, payload type 1, the sequence number, the
    /// time stamp in milliseconds), the 128-byte payload header (start code 0x24356879, the JPEG's size in three
    /// bytes, the padding's size, reserved bytes and flag 0), the JPEG and `padding` zero bytes.
    package static func liveViewPacket(
        jpeg: [UInt8], sequence: UInt16, milliseconds: UInt32, padding: UInt8 = 0
    ) -> [UInt8] {
        var packet: [UInt8] = [0xFF, 0x01]
        packet += withUnsafeBytes(of: sequence.bigEndian) { Array($0) }
        packet += withUnsafeBytes(of: milliseconds.bigEndian) { Array($0) }
        let size = UInt32(jpeg.count)
        packet += [0x24, 0x35, 0x68, 0x79, UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        packet.append(padding)
        packet += [UInt8](repeating: 0, count: 4 + 1 + 115)
        packet += jpeg
        packet += [UInt8](repeating: 0, count: Int(padding))
        return packet
    }

    /// The answer of the live view port: the stream while live view is on, 404 otherwise.
    func liveViewAnswer(_ request: SimulatedHTTPRequest) -> SimulatedHTTPAnswer {
        guard request.path == Self.liveViewPath, state.withLock({ $0.liveView }) else {
            return SimulatedHTTPAnswer(
                status: "404 Not Found", contentType: "text/plain", body: Array("not found".utf8))
        }
        configuration.log("live view stream to \(request.peer)")
        return SimulatedHTTPAnswer(contentType: "image/jpeg", body: []) { client in self.streamLiveView(to: client) }
    }

    /// Sends a frame of the test scene ten times a second until the client goes, live view is stopped or the
    /// simulator stops.
    private func streamLiveView(to client: Socket) {
        var sequence: UInt16 = 0
        while state.withLock({ !$0.stopping && $0.liveView }) {
            guard
                let picture = try? TestScene.render(
                    width: 320, height: 240, lighting: .init(), time: Double(sequence) / 10),
                let jpeg = try? encoder.encode(picture, quality: 70)
            else { return }
            let packet = Self.liveViewPacket(
                jpeg: jpeg, sequence: sequence, milliseconds: UInt32(sequence) * 100, padding: UInt8(sequence % 4))
            guard (try? client.send(packet, timeout: .seconds(2), while: "sending live view")) != nil else { return }
            sequence &+= 1
            usleep(100_000)
        }
    }
}
