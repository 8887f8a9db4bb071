import Viewfinder

/// `viewfinder discover`: lists the cameras that announce themselves on the network and those attached by USB, or
/// finds one at a place.
enum DiscoverCommand: Command {
    static let spec = CommandSpec(
        name: "discover",
        abstract: "List the cameras on the network and on USB, or find the camera at a given place.",
        discussion: """
            Without a place, searches: listens for cameras that announce themselves over multicast DNS \
            (_ptp._tcp, as Nikon cameras do) and SSDP (as Canon and Sony cameras do) for --timeout seconds and \
            lists each one once, however many ways it was heard, with its name, model, address and how it was \
            found, together with the PTP and MTP cameras attached by USB (address usb:BUS:ADDRESS; --usb \
            BUS:ADDRESS names one). --watch keeps listening and prints each camera found or lost, such as a \
            camera plugged in or out, until Ctrl-C. Finding none is not an error. With --gateway, --interface or \
            --host it looks for a PTP/IP camera there instead (a camera that makes its own WiFi network is the \
            gateway of the computers that join it), connects just long enough to read what the camera is, then \
            disconnects; it exits with 69 when no camera answers there.
            """,
        options: CameraTarget.options + [
            .value("timeout", "SECONDS", help: "How long to listen when searching.", default: "3"),
            .flag("watch", help: "Keep searching and print each camera found or lost, until Ctrl-C."), .json,
        ],
        examples: [
            Example(commandLine: "discover", comment: "The cameras that announce themselves within 3 seconds."),
            Example(commandLine: "discover --watch --json", comment: "Each camera found or lost, as a JSON line."),
            Example(commandLine: "discover --gateway", comment: "Looks for a camera at the default gateway."),
            Example(commandLine: "discover --interface wlan0 --family nikon", comment: "A Nikon on wlan0's network."),
            Example(
                commandLine: "discover --host 127.0.0.1:15740 --json",
                comment: "The camera 'viewfinder simulate' runs, as JSON."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let target = try CameraTarget(arguments)
        guard target.namesAPlace else {
            return try await search(arguments, family: target.descriptor.family)
        }
        let record = try await target.withConnectedCamera { CameraRecord($0) }
        if arguments.flag("json") {
            try Console.printJSON(record)
        } else {
            record.lines.forEach(Console.print)
        }
    }

    /// Searches the network and lists what it finds.
    private static func search(_ arguments: ParsedArguments, family: CameraFamily) async throws {
        let family = family == .genericPTPIP ? nil : family
        let json = arguments.flag("json")
        if arguments.flag("watch") {
            return try await watch(family: family, json: json)
        }
        let seconds = try arguments.seconds("timeout", default: 3, in: 0.1...3600)
        let cameras = await NetworkSearch.cameras(within: .milliseconds(Int64(seconds * 1000)), family: family)
        let records = cameras.map(DiscoveredCameraRecord.init)
        if json {
            return try Console.printJSON(records)
        }
        guard !records.isEmpty else {
            Console.printToError("No camera announced itself within \(seconds) s, and none is attached by USB.")
            Console.printToError(
                "Check that the camera's WiFi is on and that this computer is on its network, or give --host HOST "
                    + "or --gateway to look for one that does not announce itself.")
            for error in CameraDiscovery.shared.searchErrors {
                Console.printToError("Could not listen: \(error.message)")
            }
            return
        }
        Console.printTable(header: DiscoveredCameraRecord.header, rows: records.map(\.row))
    }

    /// Prints each change until interrupted.
    private static func watch(family: CameraFamily?, json: Bool) async throws {
        struct Change: Encodable {
            var change: String
            var camera: DiscoveredCameraRecord
        }
        let discovery = CameraDiscovery.shared
        Interrupt.beginHandling()
        let token = discovery.addDiscoveryObserver { change in
            let (name, camera): (String, DiscoveredCamera) =
                switch change {
                case .discovered(let camera): ("found", camera)
                case .updated(let camera): ("updated", camera)
                case .lost(let camera): ("lost", camera)
                }
            guard family == nil || camera.family == family else { return }
            if json {
                try? Console.printJSONLine(Change(change: name, camera: DiscoveredCameraRecord(camera)))
            } else {
                Console.print("\(name) \(camera), \(camera.family) by \(camera.foundBy) [\(camera.id)]")
            }
        }
        discovery.beginSearching()
        for error in discovery.searchErrors {
            Console.printToError("Could not listen: \(error.message)")
        }
        await Interrupt.wait()
        withExtendedLifetime(token) {}
        discovery.stopSearching()
    }
}
