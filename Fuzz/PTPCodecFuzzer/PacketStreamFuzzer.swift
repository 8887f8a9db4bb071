import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

/// Reads a stream of PTP/IP packets as a connection receives them from a peer: headers, control packets, and data
/// payloads read or skipped, through a read buffer whose size the input chooses.
enum PacketStreamFuzzer {
    static func read(_ input: [UInt8]) {
        guard let options = input.first, let (near, far) = try? Socket.pair() else { return }
        guard let feeder = try? StreamFeeder(far, sending: Array(input.dropFirst())) else {
            near.close()
            far.close()
            return
        }
        let connection = PTPIPConnection(
            socket: near, timeout: .seconds(2), maximumControlPacketLength: 4096,
            bufferCapacity: options & 1 == 0 ? 1 << 16 : 64)
        var payload = [UInt8](repeating: 0, count: 1 << 16)
        var skips = options & 2 == 0
        do throws(ViewfinderError) {
            while true {
                switch try connection.readNext(while: "reading a fuzzed stream") {
                case .packet(let packet):
                    precondition((try? packet.encoded()) != nil, "\(packet) decoded but does not encode")
                case .data(_, _, let count):
                    if skips || count > payload.count {
                        try connection.skipPayload(count, while: "skipping a payload")
                    } else {
                        try typedThrows {
                            try payload.withUnsafeMutableBytes {
                                try connection.readPayload(
                                    into: UnsafeMutableRawBufferPointer(rebasing: $0[..<count]), while: "a payload")
                            }
                        }
                    }
                    skips.toggle()
                }
            }
        } catch {
            precondition(error.code != .timeout, "reading a finite stream timed out: \(error.message)")
        }
        near.close()
        feeder.finish()
    }
}
