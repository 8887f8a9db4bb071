import ViewfinderCore

/// What multicast DNS answers have said about `_ptp._tcp` services: each instance's pointer, SRV and TXT records and
/// its host's address, put together into cameras as the pieces arrive, in one message or several.
///
/// Bounded: at most ``maximumEntries`` instances and as many hosts; records for others are ignored.
package struct MulticastDNSCache {
    /// The service type cameras announce.
    package static let service = try! DNSName("_ptp._tcp.local")
    /// The most instances and the most hosts kept.
    package static let maximumEntries = 256

    private struct Instance {
        var lifetime: UInt32?
        var port: UInt16?
        var target: DNSName?
        var text: [String: String] = [:]
        /// The address the instance's answer came from, if its host's A record never came.
        var sender: String
    }

    private var instances: [DNSName: Instance] = [:]
    private var hosts: [DNSName: String] = [:]
    /// Hosts' IPv6 addresses, other than link-local ones (which need the interface the sender's address carries).
    private var ipv6Hosts: [DNSName: String] = [:]

    package init() {}

    /// Takes a message received from `sender` and returns what it changes: cameras seen or gone.
    package mutating func take(_ message: DNSMessage, from sender: String) -> [CameraSearchEvent] {
        guard message.isResponse else { return [] }
        var touched: [DNSName] = []
        var events: [CameraSearchEvent] = []
        for record in message.records {
            switch record.data {
            case .pointer(let instance) where record.name == Self.service && instance.hasSuffix(Self.service):
                if record.timeToLive == 0 {
                    if instances.removeValue(forKey: instance) != nil { events.append(.gone(key: Self.key(instance))) }
                } else if update(instance, sender: sender, { $0.lifetime = record.timeToLive }) {
                    touched.append(instance)
                }
            case .service(_, _, let port, let target) where record.name.hasSuffix(Self.service):
                if update(record.name, sender: sender, { ($0.port, $0.target) = (port, target) }) {
                    touched.append(record.name)
                }
            case .text where record.name.hasSuffix(Self.service):
                if update(record.name, sender: sender, { $0.text = record.textValues }) { touched.append(record.name) }
            case .ipv4(let address) where record.timeToLive > 0:
                guard hosts[record.name] != nil || hosts.count < Self.maximumEntries else { continue }
                hosts[record.name] = address.map(String.init).joined(separator: ".")
                touched += instances.filter { $0.value.target == record.name }.map(\.key)
            case .ipv6(let address) where record.timeToLive > 0 && !(address[0] == 0xFE && address[1] & 0xC0 == 0x80):
                guard ipv6Hosts[record.name] != nil || ipv6Hosts.count < Self.maximumEntries else { continue }
                ipv6Hosts[record.name] = Self.text(ofIPv6: address)
                touched += instances.filter { $0.value.target == record.name }.map(\.key)
            default:
                continue
            }
        }
        for instance in Set(touched).sorted(by: { $0.description < $1.description }) {
            if let event = seen(instance) { events.append(event) }
        }
        return events
    }

    /// The questions to ask for what is missing of the instances known: their SRV and TXT, their hosts' addresses.
    package var missing: [DNSQuestion] {
        instances.sorted { $0.key.description < $1.key.description }.flatMap { name, instance -> [DNSQuestion] in
            guard instance.lifetime != nil else { return [] }
            guard let target = instance.target else {
                return [
                    DNSQuestion(name: name, type: DNSRecordType.srv), DNSQuestion(name: name, type: DNSRecordType.txt),
                ]
            }
            return hosts[target] == nil && ipv6Hosts[target] == nil
                ? [
                    DNSQuestion(name: target, type: DNSRecordType.a),
                    DNSQuestion(name: target, type: DNSRecordType.aaaa),
                ]
                : []
        }
    }

    /// Updates an instance, adding it when there is room; returns whether it is kept.
    private mutating func update(_ name: DNSName, sender: String, _ change: (inout Instance) -> Void) -> Bool {
        guard instances[name] != nil || instances.count < Self.maximumEntries else { return false }
        change(&instances[name, default: Instance(sender: sender)])
        return true
    }

    /// The camera an instance describes, once its pointer and SRV records are known.
    private func seen(_ name: DNSName) -> CameraSearchEvent? {
        guard let instance = instances[name], let lifetime = instance.lifetime, let port = instance.port else {
            return nil
        }
        let host = instance.target.flatMap { hosts[$0] ?? ipv6Hosts[$0] } ?? instance.sender
        let label = name.firstLabel ?? ""
        let family = Self.family(name: label, text: instance.text)
        let camera = DiscoveredCamera(
            id: instance.text["guid"].map { "guid:\($0.lowercased())" } ?? "mdns:\(name)", family: family,
            manufacturer: instance.text["manufacturer"] ?? (family == .genericPTPIP ? "" : family.description),
            model: instance.text["model"] ?? instance.text["md"] ?? "", name: label,
            serialNumber: instance.text["serial"], address: .network(host: host, port: port), foundBy: .multicastDNS)
        return .seen(key: Self.key(name), camera: camera, lifetime: .seconds(Int64(lifetime)))
    }

    private static func key(_ instance: DNSName) -> String { "mdns:\(instance)" }

    /// An IPv6 address as RFC 5952 writes it: groups in lower-case hex without leading zeros, the longest run of two
    /// or more zero groups as `::`.
    static func text(ofIPv6 address: [UInt8]) -> String {
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]) }
        var best: Range<Int>?
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8, groups[index] == 0 { index += 1 }
            if index - start >= 2, index - start > (best?.count ?? 0) { best = start..<index }
        }
        let hex = { (range: Range<Int>) in groups[range].map { String($0, radix: 16) }.joined(separator: ":") }
        guard let best else { return hex(0..<8) }
        return hex(0..<best.lowerBound) + "::" + hex(best.upperBound..<8)
    }

    /// The family from the USB vendor ID in the TXT record (`vid`), or the maker named in the instance's name.
    static func family(name: String, text: [String: String]) -> CameraFamily {
        let vendors: [String: CameraFamily] = [
            "04a9": .canon, "04b0": .nikon, "054c": .sony, "04cb": .fujifilm, "07b4": .olympus, "04da": .panasonic,
        ]
        if let vendor = text["vid"]?.lowercased(), let family = vendors[vendor] { return family }
        let lowered = (name + " " + (text["manufacturer"] ?? "")).lowercased()
        for family in CameraFamily.allCases where family != .genericPTPIP && lowered.contains(family.rawValue) {
            return family
        }
        return .genericPTPIP
    }
}
