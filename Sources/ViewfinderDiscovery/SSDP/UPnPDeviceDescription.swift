import ViewfinderCore
import ViewfinderHTTPMessage

/// What a UPnP device description (the XML at an SSDP LOCATION) says about the device: its maker, model, names
/// and UDN, and the services it offers.
///
/// The reader is a single pass over at most ``maximumLength`` bytes that keeps only these fields: it expands no
/// entity beyond XML's five and character references, refuses documents with a DTD (where entity bombs live) and
/// nesting deeper than ``maximumDepth``, so hostile XML costs no more than its length.
package struct UPnPDeviceDescription: Hashable, Sendable {
    /// The root device's manufacturer ("Canon").
    package var manufacturer: String?
    /// Its model name ("Canon EOS R6").
    package var modelName: String?
    /// The name its owner sees.
    package var friendlyName: String?
    /// Its UDN ("uuid:…"), the same as in its SSDP USN.
    package var udn: String?
    /// Its serial number, where it gives one.
    package var serialNumber: String?
    /// A Canon's nickname (X_deviceNickname), where it gives one.
    package var nickname: String?
    /// The service types of the device and its embedded devices.
    package var serviceTypes: [String] = []
    /// Where each service takes its actions (its `controlURL`, as written), by service type; the first of a type.
    package var controlURLs: [String: String] = [:]
    /// The base that relative URLs of the description are read against (`URLBase`), where it gives one.
    package var urlBase: String?
    /// The version of Sony's Camera Remote API (`X_ScalarWebAPI_Version`), which a Sony that speaks it over HTTP
    /// gives and one that speaks PTP/IP does not.
    package var remoteAPIVersion: String?

    /// The longest description read.
    package static let maximumLength = 64 << 10
    /// The deepest nesting read.
    package static let maximumDepth = 32
    /// The most service types kept.
    package static let maximumServiceCount = 64

    /// A description with the given fields.
    package init(
        manufacturer: String? = nil, modelName: String? = nil, friendlyName: String? = nil, udn: String? = nil,
        serialNumber: String? = nil, nickname: String? = nil, serviceTypes: [String] = [],
        controlURLs: [String: String] = [:], remoteAPIVersion: String? = nil
    ) {
        self.manufacturer = manufacturer
        self.modelName = modelName
        self.friendlyName = friendlyName
        self.udn = udn
        self.serialNumber = serialNumber
        self.nickname = nickname
        self.serviceTypes = serviceTypes
        self.controlURLs = controlURLs
        self.remoteAPIVersion = remoteAPIVersion
    }

    /// Reads a description.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a document that is too long or too deep, has a DTD, a
    ///   tag that does not end, or end tags that do not match.
    package init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        let document = try XMLElements(
            bytes, from: "a device description", maximumLength: Self.maximumLength, maximumDepth: Self.maximumDepth)
        let rootDevice = document.positions(of: "device").first
        for element in document.elements {
            switch element.name {
            case "serviceType" where serviceTypes.count < Self.maximumServiceCount:
                serviceTypes.append(element.text)
            case "X_deviceNickname":
                // Canon puts its nickname in a service element.
                nickname = nickname ?? element.text
            case "X_ScalarWebAPI_Version":
                remoteAPIVersion = remoteAPIVersion ?? element.text
            case "URLBase":
                urlBase = urlBase ?? element.text
            case _ where rootDevice != nil && element.parent == rootDevice:
                assign(element.text, to: element.name)
            default:
                break
            }
        }
        for position in document.positions(of: "service").prefix(Self.maximumServiceCount) {
            let children = document.children(of: position)
            guard let type = children.first(where: { $0.name == "serviceType" })?.text,
                let control = children.first(where: { $0.name == "controlURL" })?.text, controlURLs[type] == nil
            else { continue }
            controlURLs[type] = control
        }
    }

    /// Where the service whose type begins with `typePrefix` (any version of it) takes its actions, its control URL
    /// read against ``urlBase`` or else against `location`, the description's own URL; `nil` when the description
    /// names no such service or its control URL is not an `http://` one.
    ///
    /// ```swift
    /// let control = description.controlURL(
    ///     of: "urn:schemas-upnp-org:service:ContentDirectory:", describedAt: location)
    /// ```
    package func controlURL(of typePrefix: String, describedAt location: HTTPURL) -> HTTPURL? {
        guard let control = controlURLs.filter({ $0.key.hasPrefix(typePrefix) }).min(by: { $0.key < $1.key })?.value
        else { return nil }
        // A URL with a scheme stands alone: an http:// one is read, any other is none.
        if let colon = control.firstIndex(of: ":"), !control[..<colon].contains("/") { return HTTPURL(control) }
        let base = urlBase.flatMap(HTTPURL.init) ?? location
        if control.hasPrefix("/") { return HTTPURL(host: base.host, port: base.port, target: control) }
        // A relative path is read against the base's directory.
        let directory = base.target.prefix { $0 != "?" }
        let parent = directory.lastIndex(of: "/").map { directory[...$0] } ?? "/"
        return HTTPURL(host: base.host, port: base.port, target: parent + control)
    }

    /// Keeps the first value of a field of the root device.
    private mutating func assign(_ value: String, to element: String) {
        switch element {
        case "manufacturer": manufacturer = manufacturer ?? value
        case "modelName": modelName = modelName ?? value
        case "friendlyName": friendlyName = friendlyName ?? value
        case "UDN": udn = udn ?? value
        case "serialNumber": serialNumber = serialNumber ?? value
        default: break
        }
    }
}
