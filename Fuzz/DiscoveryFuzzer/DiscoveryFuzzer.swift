import FuzzSupport
import ViewfinderCore
import ViewfinderDiscovery

/// Fuzzes what discovery reads from the network: a selector byte, then a DNS message (0), an SSDP datagram (1) or
/// a UPnP device description (2).
///
/// Besides crashes and hangs, it checks what must hold: a decoder fails only with `malformedData`; a DNS message
/// or an SSDP datagram that decodes encodes again and decodes to an equal value; a description keeps within its
/// bounds.
@main enum DiscoveryFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    static func fuzz(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let bytes = Array(input.dropFirst())
        do throws(ViewfinderError) {
            switch selector % 3 {
            case 0:
                let message = try DNSMessage(decoding: bytes)
                let encoded: [UInt8]
                do {
                    encoded = try message.encoded()
                } catch {
                    // Pointers can make a message that is longer written out plainly than the 9000 bytes allowed.
                    precondition(error.code == .invalidArgument, "encoding failed with \(error)")
                    return
                }
                let again = try? DNSMessage(decoding: encoded)
                precondition(again == message, "a DNS message changed in a round trip")
            case 1:
                let message = try SSDPMessage(decoding: bytes)
                let again = try? SSDPMessage(decoding: message.encoded())
                precondition(again == message, "an SSDP datagram changed in a round trip")
            default:
                let description = try UPnPDeviceDescription(decoding: bytes)
                precondition(description.serviceTypes.count <= UPnPDeviceDescription.maximumServiceCount)
            }
        } catch {
            precondition(error.code == .malformedData, "a decoder failed with \(error)")
        }
    }
}
