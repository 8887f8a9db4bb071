import CViewfinderSystem
import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A wireless network this machine has joined: the interface and the network's name (SSID).
///
/// A camera that is its own access point names its network after itself (a Fujifilm X-T4's is
/// `FUJIFILM-X-T4-1A2B`), so the network joined says which camera is at the interface's gateway.
///
/// ```swift
/// for network in try JoinedWirelessNetwork.all() {
///     print("\(network.interface) joined \(network.name)")
/// }
/// ```
public struct JoinedWirelessNetwork: Hashable, Sendable, CustomStringConvertible {
    /// The interface that joined it, such as `wlan0`.
    public var interface: String
    /// The network's name as sent, up to 32 bytes and not necessarily UTF-8.
    public var ssid: [UInt8]

    /// Creates a joined network.
    public init(interface: String, ssid: [UInt8]) {
        self.interface = interface
        self.ssid = ssid
    }

    /// The network's name as text, with bytes that are not UTF-8 replaced.
    public var name: String { String(decoding: ssid, as: UTF8.self) }

    /// The network and its interface, such as `FUJIFILM-X-T4-1A2B on wlan0`.
    public var description: String { "\(name) on \(interface)" }

    /// The networks joined now, asked of the kernel's wireless configuration (nl80211); empty on a machine without
    /// wireless interfaces.
    ///
    /// The network of each station interface is the one its interface description names, where the kernel gives it
    /// there (as Linux before 4.15 did), or else the one of the access point it is associated with in its scan results
    /// (as `iw dev IF link` finds it).
    ///
    /// - Throws: `ViewfinderError` when the kernel could not be asked or its answer was malformed.
    public static func all() throws(ViewfinderError) -> [JoinedWirelessNetwork] {
        var link = try GenericNetlinkLink()
        guard let family = try link.familyID(named: "nl80211") else { return [] }
        let interfaces = try link.dump(
            GenericNetlinkMessage(
                type: family, flags: GenericNetlinkMessage.requestFlag | GenericNetlinkMessage.dumpFlag, sequence: 0,
                command: getInterfaceCommand, attributes: []))
        var joined: [JoinedWirelessNetwork] = []
        for station in stations(in: interfaces) {
            if let ssid = station.ssid {
                joined.append(JoinedWirelessNetwork(interface: station.interface, ssid: ssid))
                continue
            }
            let scan = try link.dump(
                GenericNetlinkMessage(
                    type: family, flags: GenericNetlinkMessage.requestFlag | GenericNetlinkMessage.dumpFlag,
                    sequence: 0, command: getScanCommand,
                    attributes: [(interfaceIndexAttribute, withUnsafeBytes(of: station.index.littleEndian, Array.init))]
                ))
            if let ssid = try associatedSSID(in: scan) {
                joined.append(JoinedWirelessNetwork(interface: station.interface, ssid: ssid))
            }
        }
        return joined
    }

    /// A station interface in an interface dump: its name, its index, and the SSID where the dump gives it.
    struct Station: Equatable {
        var interface: String
        var index: UInt32
        var ssid: [UInt8]?
    }

    /// The station interfaces in an interface dump's messages; an access point's own interface is not one.
    static func stations(in interfaces: [GenericNetlinkMessage]) -> [Station] {
        interfaces.compactMap { message in
            guard let type = message.attribute(interfaceTypeAttribute).flatMap(uint32),
                clientTypes.contains(type),
                let index = message.attribute(interfaceIndexAttribute).flatMap(uint32),
                let name = message.attribute(interfaceNameAttribute)
            else { return nil }
            let ssid = message.attribute(ssidAttribute).flatMap { $0.isEmpty ? nil : Array($0.prefix(32)) }
            return Station(
                interface: String(decoding: name.prefix { $0 != 0 }, as: UTF8.self), index: index, ssid: ssid)
        }
    }

    /// The SSID of the access point a scan dump's messages say the interface is associated with, from its
    /// information elements; `nil` when it is associated with none.
    ///
    /// - Throws: `ViewfinderError` with `malformedData` when a nested length runs past its attribute.
    static func associatedSSID(in scan: [GenericNetlinkMessage]) throws(ViewfinderError) -> [UInt8]? {
        for message in scan {
            guard let bss = message.attribute(bssAttribute) else { continue }
            let attributes: [(type: UInt16, payload: [UInt8])]
            do {
                attributes = try GenericNetlinkMessage.nestedAttributes(in: bss)
            } catch {
                throw ViewfinderError(
                    .malformedData, "the kernel's scan result has a bad length at byte \(error.offset)")
            }
            func attribute(_ type: UInt16) -> [UInt8]? { attributes.first { $0.type == type }?.payload }
            guard attribute(bssStatusAttribute).flatMap(uint32) == associatedStatus,
                let elements = attribute(bssInformationElementsAttribute) ?? attribute(bssBeaconElementsAttribute)
            else { continue }
            // Information elements: an ID, a length and that many bytes each; the SSID's ID is 0.
            var offset = 0
            while elements.count - offset >= 2 {
                let length = Int(elements[offset + 1])
                guard length <= elements.count - offset - 2 else { break }
                if elements[offset] == 0 {
                    return length == 0 || length > 32 ? nil : Array(elements[(offset + 2)..<(offset + 2 + length)])
                }
                offset += 2 + length
            }
        }
        return nil
    }

    /// A u32 attribute's value, in the host's (little-endian) order.
    private static func uint32(_ payload: [UInt8]) -> UInt32? {
        guard payload.count == 4 else { return nil }
        return UInt32(payload[0]) | UInt32(payload[1]) << 8 | UInt32(payload[2]) << 16 | UInt32(payload[3]) << 24
    }

    /// `NL80211_CMD_GET_INTERFACE`.
    static let getInterfaceCommand: UInt8 = 5
    /// `NL80211_CMD_GET_SCAN`, the scan results of the interface `NL80211_ATTR_IFINDEX` names.
    static let getScanCommand: UInt8 = 32
    /// `NL80211_ATTR_IFINDEX`, a u32.
    static let interfaceIndexAttribute: UInt16 = 3
    /// `NL80211_ATTR_IFNAME`, a NUL-terminated string.
    static let interfaceNameAttribute: UInt16 = 4
    /// `NL80211_ATTR_IFTYPE`, a u32.
    static let interfaceTypeAttribute: UInt16 = 5
    /// `NL80211_IFTYPE_STATION` and `NL80211_IFTYPE_P2P_CLIENT`: interfaces that join a network.
    static let clientTypes: Set<UInt32> = [2, 8]
    /// `NL80211_ATTR_SSID`: an access point's own network, and before Linux 4.15 a station's too.
    static let ssidAttribute: UInt16 = 52
    /// `NL80211_ATTR_BSS`: a scan result, nested.
    static let bssAttribute: UInt16 = 47
    /// `NL80211_BSS_INFORMATION_ELEMENTS`, in a scan result.
    static let bssInformationElementsAttribute: UInt16 = 6
    /// `NL80211_BSS_BEACON_IES`, in a scan result.
    static let bssBeaconElementsAttribute: UInt16 = 11
    /// `NL80211_BSS_STATUS`, a u32, in a scan result.
    static let bssStatusAttribute: UInt16 = 9
    /// `NL80211_BSS_STATUS_ASSOCIATED`.
    static let associatedStatus: UInt32 = 1
}

/// A generic netlink socket connected to the kernel, for one request at a time with a deadline.
struct GenericNetlinkLink: ~Copyable {
    private let socket: Socket
    private var sequence: UInt32 = 1
    /// How long the kernel has to answer a request.
    static let timeout = Duration.seconds(2)
    /// `NETLINK_GENERIC`.
    static let genericProtocol: CInt = 16
    /// The most messages a dump may hold, so a kernel that never says it is done costs bounded memory.
    static let maximumMessages = 4096

    init() throws(ViewfinderError) {
        let descriptor = viewfinder_netlink_connect(Self.genericProtocol)
        guard descriptor >= 0 else {
            throw ViewfinderError(Errno.current, while: "opening a generic netlink socket")
        }
        socket = Socket(adopting: FileDescriptor(unsafeAdopting: descriptor), endpoint: "the kernel")
    }

    /// The ID of the generic netlink family `name`, or `nil` when the kernel has no such family (no module for it).
    mutating func familyID(named name: String) throws(ViewfinderError) -> UInt16? {
        let request = GenericNetlinkMessage(
            type: GenericNetlinkMessage.controlFamily, flags: GenericNetlinkMessage.requestFlag, sequence: 0,
            command: GenericNetlinkMessage.getFamilyCommand,
            attributes: [(GenericNetlinkMessage.familyNameAttribute, Array(name.utf8) + [0])])
        do throws(ViewfinderError) {
            let answers = try exchange(request, dump: false)
            guard let id = answers.first?.attribute(GenericNetlinkMessage.familyIDAttribute), id.count >= 2 else {
                throw ViewfinderError(.malformedData, "the kernel named no ID for the netlink family \(name)")
            }
            return UInt16(id[0]) | UInt16(id[1]) << 8
        } catch  where error.errno == ENOENT {
            return nil
        }
    }

    /// Every message a dump request gets, until the kernel says it is done.
    mutating func dump(_ request: GenericNetlinkMessage) throws(ViewfinderError) -> [GenericNetlinkMessage] {
        try exchange(request, dump: true)
    }

    /// Sends `request` and collects its answers: one message (or an acknowledgement), or a dump's messages until
    /// its end.
    private mutating func exchange(_ request: GenericNetlinkMessage, dump: Bool) throws(ViewfinderError)
        -> [GenericNetlinkMessage]
    {
        var request = request
        sequence &+= 1
        request.sequence = sequence
        let bytes = request.encoded
        let sent = bytes.withUnsafeBytes { raw in
            valueOrErrno { Glibc.send(socket.descriptor, raw.baseAddress, raw.count, 0) }
        }
        if case .failure(let error) = sent { throw ViewfinderError(error, while: "asking the kernel over netlink") }
        let deadline = ContinuousClock.now + Self.timeout
        var buffer = [UInt8](repeating: 0, count: 32_768)
        var messages: [GenericNetlinkMessage] = []
        while true {
            let receiving = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SocketError) in
                    try socket.receiveDatagram(into: raw, until: deadline, while: "reading the kernel's netlink answer")
                }
            }
            let received: Socket.ReceivedDatagram?
            switch receiving {
            case .success(let datagram): received = datagram
            case .failure(let error): throw ViewfinderError(error)
            }
            guard let received else {
                throw ViewfinderError(.timeout, "the kernel did not answer a netlink request within 2 s")
            }
            guard !received.isTruncated else {
                throw ViewfinderError(.malformedData, "the kernel's netlink answer is longer than 32 KiB")
            }
            let parts: [GenericNetlinkMessage.Part]
            do {
                parts = try GenericNetlinkMessage.decode(buffer[..<received.count])
            } catch {
                throw ViewfinderError(
                    .malformedData, "the kernel's netlink answer has a bad length at byte \(error.offset)")
            }
            for part in parts {
                switch part {
                case .message(let message) where message.sequence == sequence:
                    messages.append(message)
                    guard messages.count <= Self.maximumMessages else {
                        throw ViewfinderError(.malformedData, "the kernel's netlink dump did not end")
                    }
                    if !dump { return messages }
                case .error(let code, let answered) where answered == sequence:
                    if code == 0 { return messages }
                    throw ViewfinderError(Errno(rawValue: -code), while: "asking the kernel over netlink")
                case .done(let answered) where answered == sequence:
                    return messages
                default:
                    continue
                }
            }
        }
    }
}
