import Viewfinder

/// Where the camera commands look for their camera, from the target options they share: `--gateway`,
/// `--interface IF`, `--host HOST[:PORT]` or `--camera NAME` (a camera that announces itself), and `--family`; or
/// `--usb BUS:ADDRESS|SERIAL|any` for a camera attached by USB.
///
/// ```swift
/// let target = try CameraTarget(arguments)
/// try await target.withConnectedCamera { camera in
///     print(camera.deviceInfo?.model ?? "unknown model")
/// }
/// ```
///
/// Every failure to find or reach the camera becomes a ``CommandFailure`` with exit status 69 (EX_UNAVAILABLE) and a
/// hint for the place that was tried.
struct CameraTarget {
    /// The target options, for the specs of the commands that take them.
    static let options: [OptionSpec] = [
        .flag("gateway", help: "Look for the camera at the default gateway (the default)."),
        .value("interface", "IF", help: "Look for the camera at the gateway of interface IF, such as wlan0."),
        .value(
            "host", "HOST[:PORT]",
            help:
                "The camera's address, and its port (15740 by default; 80 for panasonic and olympus; 64321, its "
                + "description's, for sony-remote)."),
        .value(
            "camera", "NAME|SERIAL",
            help: "A camera that announces itself on the network, by its name, serial number or ID."),
        .value(
            "family", "FAMILY",
            help:
                "The kind of camera: nikon, canon, sony, sony-remote (Sony's Camera Remote API), fujifilm, panasonic "
                + "(Lumix), olympus (and OM System) or generic (any PTP/IP camera; at a gateway where none answers, "
                + "an Olympus or a Lumix).",
            default: "generic"),
        .value(
            "usb", "BUS:ADDR|SERIAL|any",
            help:
                "A camera attached by USB, by its place (lsusb's bus and device), serial number, or any for the only one."
        ),
        .flag("sync-clock", help: "Set the camera's clock to this computer's as it connects."),
        .flag("power-off", help: "Turn the camera off as the command disconnects, where the camera offers it."),
    ]

    /// Where the camera is and what kind it is.
    let descriptor: ManualCameraDescriptor
    /// The name, serial number or ID of a camera to find by searching the network, from `--camera`.
    let cameraName: String?
    /// The USB camera `--usb` names; `any` for the only one attached.
    let usbSelector: String?
    /// How long `--camera` waits for the camera to announce itself.
    static let searchTimeout = Duration.seconds(5)

    /// Whether the options name a place to look, rather than leaving it to the command's default.
    let namesAPlace: Bool
    /// What connecting does beyond connecting: `--sync-clock`.
    let connectionOptions: CameraConnectionOptions
    /// Whether disconnecting turns the camera off: `--power-off`.
    let powersOff: Bool
    /// What the commands show of the camera's questions to its user and of what connecting could not do.
    let prompt: ConnectionPrompt

    /// Reads the target options of a command line.
    ///
    /// - Throws: ``UsageError`` for more than one place, an unknown family, or a malformed host or port.
    init(_ arguments: ParsedArguments) throws {
        let commandPath = arguments.commandPath
        let family = try Self.family(arguments.value("family") ?? "generic", commandPath: commandPath)
        let places = [
            arguments.flag("gateway") ? "--gateway" : nil, arguments.value("interface").map { _ in "--interface" },
            arguments.value("host").map { _ in "--host" }, arguments.value("camera").map { _ in "--camera" },
            arguments.value("usb").map { _ in "--usb" },
        ].compactMap { $0 }
        guard places.count <= 1 else {
            throw UsageError(
                "give one of --gateway, --interface, --host, --camera and --usb, not "
                    + places.joined(separator: " and "), commandPath: commandPath)
        }
        namesAPlace = !places.isEmpty
        connectionOptions = arguments.flag("sync-clock") ? .synchronizeClock : []
        powersOff = arguments.flag("power-off")
        prompt = ConnectionPrompt(json: arguments.flag("json"))
        cameraName = arguments.value("camera")
        usbSelector = arguments.value("usb")
        if let interface = arguments.value("interface") {
            guard !interface.isEmpty, !interface.contains("/") else {
                throw UsageError(
                    "--interface takes a network interface's name, such as wlan0", commandPath: commandPath)
            }
            descriptor = .cameraType(family, atGatewayOfInterface: interface)
        } else if let host = arguments.value("host") {
            let (address, port) = try Self.hostAndPort(host, commandPath: commandPath)
            descriptor = .cameraType(family, atAddress: address, port: port)
        } else {
            descriptor = .cameraAtSuggestedGateway(family)
        }
    }

    /// The family named by `--family` (and each of `viewfinder rig`'s `--families`).
    static func family(_ name: String, commandPath: String) throws -> CameraFamily {
        let lowered = name.lowercased()
        if lowered == "generic" || lowered == "ptpip" { return .genericPTPIP }
        if lowered == "sony-remote" || lowered == "sonyremoteapi" { return .sonyRemoteAPI }
        guard let family = CameraFamily(rawValue: lowered), family != .genericPTPIP else {
            throw UsageError(
                "--family takes nikon, canon, sony, sony-remote (older Sony bodies over the Camera Remote API), "
                    + "fujifilm (Fujifilm's WiFi protocol), panasonic (Lumix), olympus (Olympus and OM System over WiFi) "
                    + "or generic (any other PTP/IP camera), not '\(name)'",
                commandPath: commandPath)
        }
        return family
    }

    /// Splits `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`; a bare IPv6 address has no port.
    static func hostAndPort(_ text: String, commandPath: String) throws -> (host: String, port: UInt16?) {
        func invalid(_ reason: String) -> UsageError {
            UsageError("--host takes HOST or HOST:PORT, such as 192.168.1.1:15740; \(reason)", commandPath: commandPath)
        }
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw invalid("'\(text)' has no closing ]") }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw invalid("'\(rest)' follows the address") }
                portText = rest.dropFirst()
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { throw invalid("'\(text)' has no host") }
        guard let portText else { return (String(host), nil) }
        guard let port = UInt16(portText), port > 0 else {
            throw invalid("the port is a number from 1 to 65535, not '\(portText)'")
        }
        return (String(host), port)
    }

    /// Finds the camera where the options say, without connecting: a USB camera attached, a camera that announced
    /// itself by name, or a network camera at an address (which connecting then reaches).
    ///
    /// - Throws: ``CommandFailure`` with exit status 69 when no camera is found.
    func discover() async throws -> any Camera {
        if let usbSelector {
            do {
                return try await CameraDiscovery.shared.manualDiscovery.discover(
                    .cameraAttachedByUSB(usbSelector == "any" ? nil : usbSelector))
            } catch {
                throw CommandFailure(
                    (error as? ViewfinderError)?.message ?? "no USB camera: \(error)",
                    hint: "`viewfinder discover` lists the cameras attached by USB.",
                    exitStatus: ExitStatus.unavailable)
            }
        }
        if let cameraName {
            guard let found = await NetworkSearch.camera(named: cameraName, timeout: Self.searchTimeout) else {
                throw CommandFailure(
                    "no camera named '\(cameraName)' announced itself within \(Self.searchTimeout)",
                    hint: "`viewfinder discover` lists the cameras that announce themselves; or give --host HOST.",
                    exitStatus: ExitStatus.unavailable)
            }
            do {
                return try await CameraDiscovery.shared.camera(for: found)
            } catch {
                throw failure(error, connecting: false)
            }
        }
        do {
            return try await CameraDiscovery.shared.manualDiscovery.discover(descriptor)
        } catch {
            throw failure(error, connecting: false)
        }
    }

    /// Finds the camera and connects to it with the connection options, printing on standard error what the camera
    /// asks its user (Ctrl-C gives up) and what connecting could not do.
    ///
    /// - Throws: ``CommandFailure`` with exit status 69 when nothing answers there, or the camera refuses the
    ///   connection; with exit status 130 when Ctrl-C gave up waiting for the camera's user.
    ///
    /// At a gateway without `--family`, where nothing answers at the PTP/IP port, the camera may be one that speaks
    /// HTTP at its own address (an Olympus or OM System, a Panasonic Lumix): each is tried in turn before giving up.
    /// When an attempt finds something other than silence there, the failure says what each attempt found.
    func connect() async throws -> any Camera {
        let camera = try await discover()
        do {
            try await connect(camera)
        } catch let error as ViewfinderError where error.code == .connectionFailed && looksForAnyFamilyAtGateway {
            return try await connectToAnotherFamily(afterPTPIPFailed: error)
        } catch {
            throw failure(error, connecting: true)
        }
        return camera
    }

    /// Tries the families that speak HTTP at their own address, in turn, once nothing answered at the gateway's
    /// PTP/IP port with `ptpipError`, and returns the first that connects.
    ///
    /// - Throws: ``CommandFailure``: the PTP/IP failure when nothing answers for any family either; otherwise what
    ///   each attempt found.
    private func connectToAnotherFamily(afterPTPIPFailed ptpipError: ViewfinderError) async throws -> any Camera {
        var attempts: [(family: CameraFamily, error: ViewfinderError)] = []
        for family in Self.familiesAtTheirOwnAddress {
            var other = descriptor
            other.family = family
            do {
                let candidate = try await CameraDiscovery.shared.manualDiscovery.discover(other)
                try await connect(candidate)
                return candidate
            } catch {
                let failed = error as? ViewfinderError ?? ViewfinderError(.connectionFailed, "\(error)")
                if failed.code == .cancelled { throw failure(failed, connecting: true) }
                attempts.append((family, failed))
            }
        }
        guard attempts.contains(where: { $0.error.code != .connectionFailed }) else {
            throw failure(ptpipError, connecting: true)
        }
        let found = attempts.map { "as \($0.family): \($0.error.message)" }
        throw CommandFailure(
            "no camera at \(place) answered as any kind tried; as a PTP/IP camera: \(ptpipError.message); "
                + found.joined(separator: "; "),
            hint: "Something answers there but not as these cameras: give its kind with --family, and its address "
                + "with --host HOST[:PORT].",
            exitStatus: ExitStatus.unavailable)
    }

    /// The families tried at a gateway where nothing answers at the PTP/IP port, in turn: the cameras that speak HTTP
    /// on their own network, at its gateway.
    private static let familiesAtTheirOwnAddress: [CameraFamily] = [.olympus, .panasonic]

    /// Whether the options name a gateway and no family, so that any kind of camera there will do.
    private var looksForAnyFamilyAtGateway: Bool {
        guard usbSelector == nil, cameraName == nil, descriptor.family == .genericPTPIP, descriptor.port == nil else {
            return false
        }
        switch descriptor.location {
        case .suggestedGateway, .gatewayOfInterface: return true
        case .address, .usb: return false
        }
    }

    /// Connects to `camera` with the connection options, reporting its warnings.
    private func connect(_ camera: any Camera) async throws {
        let warnings = try await camera.connect(options: connectionOptions, userIntervention: prompt.handle)
        prompt.report(warnings)
    }

    /// Disconnects, turning the camera off with `--power-off`; what goes wrong is printed on standard error, as the
    /// command's work is done.
    func disconnect(_ camera: any Camera) async {
        guard powersOff else {
            try? await camera.disconnect()
            return
        }
        do {
            try await camera.disconnect(poweringOffCamera: true)
        } catch {
            prompt.reportPowerOffFailure(error)
            try? await camera.disconnect()
        }
    }

    /// Connects, runs `body` with the camera, and disconnects whether or not `body` throws.
    func withConnectedCamera<Result>(_ body: (any Camera) async throws -> Result) async throws -> Result {
        let camera = try await connect()
        let result: Result
        do {
            result = try await body(camera)
        } catch {
            await disconnect(camera)
            throw error
        }
        await disconnect(camera)
        return result
    }

    /// Where the options pointed, for messages: "127.0.0.1:15740", "[fe80::1]:15740", "the default gateway".
    var place: String {
        if let usbSelector { return usbSelector == "any" ? "USB" : "USB \(usbSelector)" }
        return switch descriptor.location {
        case .suggestedGateway: "the default gateway"
        case .gatewayOfInterface(let interface): "the gateway of \(interface)"
        case .address(let host): CameraAddress.network(host: host, port: descriptor.port).description
        case .usb(.only): "USB"
        case .usb(let selector): "USB \(selector)"
        }
    }

    /// The failure to report for an error from finding or connecting to the camera.
    private func failure(_ error: any Error, connecting: Bool) -> CommandFailure {
        guard let error = error as? ViewfinderError else {
            return CommandFailure("cannot reach a camera at \(place): \(error)", exitStatus: ExitStatus.unavailable)
        }
        let elsewhere: String =
            switch descriptor.location {
            case .suggestedGateway: "If the camera is elsewhere, give --interface IF or --host HOST."
            case .gatewayOfInterface: "If the camera is elsewhere, give --host HOST."
            case .address: "Check the address and port with the camera's network settings."
            case .usb: "`viewfinder discover` lists the cameras attached by USB."
            }
        if error.code == .cancelled {
            return CommandFailure("\(error.message)", exitStatus: ExitStatus.interrupted)
        }
        let hint: String? =
            switch error.code {
            case .connectionFailed:
                "Check that the camera is on, that its WiFi remote (PTP/IP) connection is enabled and that this "
                    + "computer is on the camera's network. " + elsewhere
            case .pairingRequired:
                "The camera did not let this computer in: connect again and confirm the connection on its screen."
            case .timeout where error.message.hasPrefix("nobody confirmed"):
                "Connect again, and confirm the connection on the camera's screen when it asks."
            case .timeout:
                "Nothing answered in time: check that this computer is on the camera's network. " + elsewhere
            case .notFound:
                "Give the camera's address with --host HOST, or the interface joined to its network with "
                    + "--interface IF."
            case .protocolFailure, .malformedData, .disconnected:
                connecting
                    ? "Something answered at \(place) but not as a PTP/IP camera; check the address and port." : nil
            default:
                nil
            }
        let what = connecting ? "cannot connect to the camera at \(place)" : "no camera found"
        return CommandFailure(
            error.message.hasPrefix("cannot find") ? error.message : "\(what): \(error.message)", hint: hint,
            exitStatus: ExitStatus.unavailable)
    }
}
