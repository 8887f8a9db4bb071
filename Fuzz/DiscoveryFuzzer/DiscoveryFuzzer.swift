import FuzzSupport
import ViewfinderCore
import ViewfinderDiscovery

/// Fuzzes what discovery reads from the network: a selector byte, then a DNS message (0), an SSDP datagram (1), a
/// UPnP device description (2), an HTTP answer carrying one (3), or a run of DNS messages given to the multicast
/// DNS cache (4: each message after its two-byte length).
///
/// Besides crashes and hangs, it checks what must hold: a decoder fails only with `malformedData`; a DNS message
/// or an SSDP datagram that decodes encodes again and decodes to an equal value; a description keeps within its
/// bounds; the cache reports only cameras of `_ptp._tcp` services.
@main enum DiscoveryFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    static func fuzz(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let bytes = Array(input.dropFirst())
        do throws(ViewfinderError) {
            switch selector % 5 {
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
            case 2:
                let description = try UPnPDeviceDescription(decoding: bytes)
                precondition(description.serviceTypes.count <= UPnPDeviceDescription.maximumServiceCount)
            case 3:
                _ = try DescriptionFetcher.description(inAnswer: bytes, from: "http://camera/")
            default:
                cache(bytes)
            }
        } catch {
            precondition(error.code == .malformedData, "a decoder failed with \(error)")
        }
    }

    /// Feeds the messages in `bytes` to a multicast DNS cache, as answers from one sender.
    static func cache(_ bytes: [UInt8]) {
        var cache = MulticastDNSCache()
        var offset = 0
        while offset + 2 <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            let end = min(offset + 2 + length, bytes.count)
            if let message = try? DNSMessage(decoding: Array(bytes[(offset + 2)..<end])) {
                for event in cache.take(message, from: "10.0.0.1") {
                    if case .seen(let key, _, _) = event {
                        precondition(
                            key.lowercased().hasSuffix("_ptp._tcp.local."), "a camera from another service: \(key)")
                    }
                }
                _ = cache.missing
            }
            offset = end
        }
    }
}
