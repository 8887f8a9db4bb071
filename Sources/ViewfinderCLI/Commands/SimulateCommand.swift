import Viewfinder
import ViewfinderSimulator
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// `viewfinder simulate`: runs the simulated PTP/IP camera until interrupted.
enum SimulateCommand: Command {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Run a simulated PTP/IP camera that real clients such as gphoto2 accept.",
        discussion: """
            The camera offers ISO, shutter speed, aperture, exposure compensation, white balance, focus and \
            exposure program, battery and date properties, captures real JPEG images of a test scene whose \
            brightness follows the exposure settings, and keeps them on a simulated card. With --identity nikon it \
            adds Nikon live view, autofocus and movie recording. With --identity canon it speaks Canon's EOS \
            dialect instead: events read with GetEvent, properties in Canon's codes, RemoteRelease, EVF live view \
            and pictures to the card or to the computer, as gphoto2's "Canon EOS (WLAN)" expects. With \
            --identity sony it is a Sony α7 IV in PC remote mode (the SDIO handshake, every property in one \
            answer, values set directly, the shutter buttons, live view and pictures in its memory, the movie \
            button), and with --identity sony-stepping an α7 III, whose ISO, shutter speed, f-number and exposure \
            compensation move a notch at a time; gphoto2 drives both as "PTP/IP Camera". With --identity fuji it \
            is a Fujifilm X-T4 speaking Fujifilm's WiFi protocol rather than PTP/IP (the init on --port, events and \
            the JPEG live view stream on the next two ports once remote capture starts), with Fujifilm's ISO, \
            exposure times, film simulations and shutter; gphoto2 drives it as "Fuji X (WLAN)"; with \
            --empty-device-info it answers GetDeviceInfo with no data, as a real X-T4 does over WiFi, and describes \
            its properties with Fujifilm's GetDeviceInfo (0x902B) instead. With --identity lumix it is a Panasonic Lumix on WiFi instead, speaking HTTP rather than PTP: cam.cgi commands on --port \
            (80, as gphoto2's lumix driver expects; a port below 1024 needs root or a network namespace), its \
            device description (/Lumix/Server0/ddd), content directory and pictures on --content-port (60606), \
            and live view as JPEG datagrams to whoever asks; with --announce ssdp it announces itself as a Lumix \
            does, a media server whose LOCATION is that description. With --identity olympus it is an Olympus E-M10 Mark II on WiFi, speaking the OI.Share \
            HTTP commands on --port (80; its clients look for 192.168.0.10): the command list, modes, properties, \
            the shutter, the card's listing and pictures, and live view as JPEG frames in RTP packets over UDP, as \
            olympuswifi expects. With --identity sony-remote-api it is a Sony α6000 speaking the Camera Remote API \
            (JSON-RPC over HTTP): its device description at /dd.xml (or --description-path) and the camera service at /sony/camera on \
            --port (8080), rec mode, settings, getEvent, the shutter with postview pictures, and live view as an \
            HTTP stream on a free port, as libsonyapi expects; with --announce ssdp it answers SSDP searches for \
            the ScalarWebAPI service. With \
            --no-focus autofocus finds no focus. With --announce it announces itself on the network as the camera \
            it plays would (multicast DNS as a Nikon does, SSDP as a Canon does), so that `viewfinder discover` \
            and other browsers find it; announcing needs --bind on a network interface (0.0.0.0 for the first). It \
            serves one client at a time and listens on loopback unless --bind says otherwise. With --count N it \
            runs N cameras on consecutive ports from --port, for a rig: each has its own card and a serial number \
            ending in its number, saves its captures (--save-captures DIR) in DIR/cam0, DIR/cam1, and so on, and \
            its log lines start with its name. Lines on standard input turn the first camera's dials, as its \
            user would: 'dial iso 1600', 'dial aperture 560' (f/5.6), 'dial shutter 40' (1/250 s, in 0.1 ms), \
            'dial ev -333' (-1/3 EV, in thousandths), or a property's code, 'dial 0x500F 800'; the connected \
            client is told, as by a real camera. 'read iso' prints the value the camera holds, and 'shoot' takes a \
            picture as the camera's own shutter button does. With --require-pairing SECONDS the camera asks its \
            user before it lets a client it does not know in, as Canon, Nikon and Sony bodies do over WiFi: the \
            client's handshake goes unanswered until 'confirm' (or 'decline') is typed on standard input, or for \
            SECONDS when above 0 (an hour at most otherwise), and a confirmed client is let in directly from then \
            on. With --usb the \
            camera is a USB device instead, a gadget through configfs and FunctionFS on a USB device controller \
            (as root; dummy_hcd gives a machine a virtual one whose host side is its own USB bus, where gphoto2 \
            and `viewfinder camera --usb` find it); once the gadget is made, the simulator gives up root and serves \
            as --user (nobody unless told otherwise), for whom FunctionFS is mounted, while a process it leaves as \
            root unplugs and removes the gadget when it ends. Press Ctrl-C to stop it, which sends the announcements' \
            goodbyes and unplugs the USB camera. With --replay LOG it plays back a real camera from a gphoto2 \
            debug log (such as those in libgphoto2's camlibs/ptp2/cameras): its DeviceInfo, and the recorded answer \
            to every request the log shows (Canon's and Nikon's event polls in order, then empty); anything else is \
            refused as not supported.
            """,
        options: [
            .value("bind", "ADDRESS", help: "The address to listen on.", default: "127.0.0.1"),
            .value(
                "port", "PORT",
                help:
                    "The TCP port to listen on (55740 for fuji, 80 for lumix and olympus, 8080 for sony-remote-api); 0 "
                    + "picks a free one.",
                default: "15740"),
            .value(
                "content-port", "PORT", help: "With --identity lumix, the port of its content directory and files.",
                default: "60606"),
            .value(
                "description-path", "PATH",
                help: "With --identity sony-remote-api, the path of its device description.", default: "/dd.xml"),
            .value(
                "identity", "generic|nikon|canon|sony|sony-stepping|fuji|lumix|olympus|sony-remote-api",
                help: "Who the camera says it is.",
                default: "generic"),
            .value("model", "NAME", help: "The model name the camera reports."),
            .value("sample-images", "COUNT", help: "How many images are on the card at start.", default: "2"),
            .value("save-captures", "DIRECTORY", help: "Also write every captured image to this directory."),
            .flag("no-focus", help: "Make autofocus find no focus, as on a blank wall."),
            .flag(
                "empty-device-info",
                help: "With --identity fuji, answer GetDeviceInfo with no data and describe the properties with "
                    + "Fujifilm's GetDeviceInfo (0x902B), as a real X-T4 does over WiFi."),
            .flag(
                "strict",
                help: "Behave as real bodies do: no grace for a reconnecting client, no answers to probes, busy while "
                    + "waking, no CaptureComplete, Canon's RemoteRelease refused."),
            .value(
                "live-view-picture", "FILE",
                help: "Show this JPEG or PNG picture in live view, such as a label with a barcode, instead of the "
                    + "test scene."),
            .value("announce", "mdns|ssdp|both", help: "Announce the camera on the network, as cameras do."),
            .value(
                "require-pairing", "SECONDS",
                help: "Hold a new client's handshake until 'confirm' is typed, or for SECONDS when above 0."),
            .value(
                "count", "N", help: "Run N cameras on consecutive ports from --port (free ones with port 0).",
                default: "1"),
            .value(
                "generated-file", "NAME:BYTES",
                help: "Also put a file of BYTES bytes on the card, made as it is sent, for trying large downloads."),
            .value(
                "replay", "LOG",
                help: "Answer as the real camera of a gphoto2 --debug log did, instead of simulating one."),
            .flag("usb", help: "Be a USB camera through a FunctionFS gadget instead of listening on TCP (as root)."),
            .value("usb-controller", "NAME", help: "The USB device controller for --usb; the first one by default."),
            .value(
                "user", "NAME|UID[:GID]",
                help: "With --usb, the user to serve as once the gadget is made; root keeps root.", default: "nobody"),
        ],
        examples: [
            Example(commandLine: "simulate", comment: "A generic camera on 127.0.0.1:15740."),
            Example(
                commandLine: "simulate --identity nikon --port 15741",
                comment: "A Nikon camera with live view; try gphoto2 --port ptpip:127.0.0.1:15741:15741."),
            Example(
                commandLine: "simulate --identity canon --port 15742",
                comment: "A Canon EOS; try gphoto2 --camera 'Canon EOS (WLAN)' --port ptpip:127.0.0.1:15742:15742."),
            Example(
                commandLine: "simulate --identity canon --bind 0.0.0.0 --announce ssdp",
                comment: "A Canon EOS that announces itself over SSDP; `viewfinder discover` finds it."),
            Example(
                commandLine: "simulate --identity lumix --bind 10.0.0.1",
                comment:
                    "A Lumix on ports 80 and 60606 (as root); try gphoto2 --camera 'Panasonic LumixGSeries' --port ip:10.0.0.1."
            ),
            Example(
                commandLine: "simulate --identity canon --require-pairing 0",
                comment: "A Canon EOS that holds a new client until 'confirm' is typed, as on the camera's screen."),
            Example(
                commandLine: "simulate --count 4 --port 15740",
                comment: "Four cameras on ports 15740 to 15743; try viewfinder rig shoot --hosts 127.0.0.1:15740+4."),
            Example(
                commandLine: "simulate --replay canon-eos-60d.debug.log --port 15743",
                comment: "A Canon EOS 60D as its log shows it; try viewfinder camera info --host 127.0.0.1:15743."),
            Example(
                commandLine: "simulate --identity nikon --usb",
                comment:
                    "A Nikon on USB (as root, after modprobe dummy_hcd libcomposite usb_f_fs); try gphoto2 --summary."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let identityName = arguments.value("identity") ?? "generic"
        if identityName == "lumix" {
            return try await runLumix(arguments)
        }
        if identityName == "olympus" {
            return try await runOlympus(arguments)
        }
        if identityName == "sony-remote-api" {
            return try await runSonyRemote(arguments)
        }
        guard let identity = CameraSimulator.Identity(rawValue: identityName) else {
            throw UsageError(
                "--identity takes generic, nikon, canon, sony, sony-stepping, fuji, lumix, olympus or sony-remote-api, not '\(identityName)'",
                commandPath: arguments.commandPath)
        }
        // A Fujifilm listens where Fujifilm's clients look, as the HTTP cameras do.
        let port = try arguments.integer("port", default: identity == .fuji ? 55740 : 15740, in: 0...65535)
        var configuration = CameraSimulator.Configuration(
            identity: identity, model: arguments.value("model"), bindAddress: arguments.value("bind") ?? "127.0.0.1",
            port: UInt16(port), sampleImageCount: try arguments.integer("sample-images", default: 2, in: 0...100),
            captureArchiveDirectory: arguments.value("save-captures"), log: { Console.print($0) })
        configuration.focusSucceeds = !arguments.flag("no-focus")
        configuration.strict = arguments.flag("strict")
        if arguments.flag("empty-device-info") {
            guard identity == .fuji, !arguments.flag("usb") else {
                throw UsageError(
                    "--empty-device-info plays a Fujifilm over WiFi: only with --identity fuji, not with --usb",
                    commandPath: arguments.commandPath)
            }
            configuration.emptyDeviceInfo = true
        }
        configuration.liveViewPicture = try arguments.value("live-view-picture").map {
            try ImageFile.picture(atPath: $0)
        }
        switch arguments.value("announce") {
        case nil: break
        case "mdns": configuration.announcements = .multicastDNS
        case "ssdp": configuration.announcements = .ssdp
        case "both": configuration.announcements = [.multicastDNS, .ssdp]
        case let other?:
            throw UsageError("--announce takes mdns, ssdp or both, not '\(other)'", commandPath: arguments.commandPath)
        }
        if arguments.value("require-pairing") != nil {
            guard identity != .fuji, !arguments.flag("usb") else {
                throw UsageError(
                    "--require-pairing is for cameras on PTP/IP: not with --identity fuji (Fujifilm's own WiFi "
                        + "protocol) or --usb", commandPath: arguments.commandPath)
            }
            let seconds = try arguments.integer("require-pairing", default: 0, in: 0...3600)
            configuration.pairedClients = []
            configuration.pairingPrompt = .seconds(seconds == 0 ? 3600 : seconds)
        }
        let count = try arguments.integer("count", default: 1, in: 1...1000)
        guard port == 0 || port + count - 1 <= 65535 else {
            throw UsageError(
                "\(count) cameras from port \(port) would go past port 65535", commandPath: arguments.commandPath)
        }
        let usb = arguments.flag("usb")
        guard !usb || count == 1 else {
            throw UsageError("--usb runs one camera; leave out --count", commandPath: arguments.commandPath)
        }
        let server = try serverAccount(arguments, usb: usb)
        let replay = try arguments.value("replay").map { path in
            let recording = try RecordedCamera(gphotoDebugLogAtPath: path)
            Console.print(
                "replaying \(recording.deviceInfo.manufacturer) \(recording.deviceInfo.model): "
                    + "\(recording.transactions.count) transactions from \(path)"
                    + (recording.deviceInfoIsFromListing ? " (DeviceInfo from gphoto2's listing)" : ""))
            for note in recording.notes { Console.print("  \(note)") }
            return recording
        }
        var simulators: [CameraSimulator] = []
        Interrupt.beginHandling()
        defer {
            for simulator in simulators { simulator.stop() }
        }
        for index in 0..<count {
            var own = configuration
            if count > 1 {
                own.port = port == 0 ? 0 : UInt16(port + index)
                own.log = { Console.print("cam\(index): \($0)") }
                own.deviceInfoChanges = { $0.serialNumber += "-\(index)" }
                own.captureArchiveDirectory = try configuration.captureArchiveDirectory.map {
                    try OutputDirectory($0 + "/cam\(index)").path
                }
            }
            let simulator =
                try replay.map { try CameraSimulator(replaying: $0, configuration: own) }
                ?? CameraSimulator(configuration: own)
            if let generated = arguments.value("generated-file") {
                let parts = generated.split(separator: ":")
                guard parts.count == 2, let bytes = UInt64(parts[1]), bytes > 0 else {
                    throw UsageError(
                        "--generated-file takes NAME:BYTES, such as MVI_0001.MOV:200000000, not '\(generated)'",
                        commandPath: arguments.commandPath)
                }
                _ = try simulator.addGeneratedObject(named: String(parts[0]), byteCount: bytes)
            }
            if usb {
                try simulator.startUSB(
                    controller: arguments.value("usb-controller"),
                    owner: server.map { (user: $0.userID, group: $0.groupID) })
            } else {
                try simulator.start()
            }
            simulators.append(simulator)
        }
        if let server {
            do throws(Errno) {
                try server.become()
            } catch {
                throw ViewfinderError(error, while: "giving up root to serve as \(server.name)")
            }
            Console.print("serving as \(server.name) (user \(server.userID), group \(server.groupID))")
        }
        if let first = simulators.first {
            try? IOThread.detach(name: "sim-dials") { readDials(for: first) }
        }
        await Interrupt.wait()
        Console.print("stopping")
    }

    /// The user a USB camera is served as once its gadget is made: nobody unless --user names another; `nil`
    /// without --usb, when the simulator does not run as root (it has nothing to give up), or when --user says root.
    private static func serverAccount(_ arguments: ParsedArguments, usb: Bool) throws -> UserAccount? {
        guard let name = arguments.value("user") else {
            return usb && getuid() == 0 ? UserAccount.named("nobody") : nil
        }
        guard usb else {
            throw UsageError(
                "--user is for --usb, which gives up root once the gadget is made",
                commandPath: arguments.commandPath)
        }
        guard let account = UserAccount.named(name) else {
            throw UsageError(
                "--user takes a user of this machine or UID[:GID]; there is no user '\(name)'",
                commandPath: arguments.commandPath)
        }
        return account.userID == 0 || getuid() != 0 ? nil : account
    }

    /// Reads dial commands from standard input until it ends, and turns the camera's dials, releases its shutter, or
    /// answers its question about a new client.
    private static func readDials(for simulator: CameraSimulator) {
        while let line = readLine() {
            let words = line.split(separator: " ")
            guard !words.isEmpty else { continue }
            if words == ["confirm"] || words == ["decline"] {
                let waiting = simulator.clientsAwaitingPairing
                words == ["confirm"] ? simulator.confirmPairing() : simulator.declinePairing()
                Console.print("\(words[0]): \(waiting) client\(waiting == 1 ? "" : "s") waiting")
                continue
            }
            if words == ["shoot"] {
                do throws(ViewfinderError) {
                    try simulator.pressShutterButton()
                    Console.print("shoot: the shutter is released")
                } catch {
                    Console.printToError("shoot: \(error.message)")
                }
                continue
            }
            let value = words.count == 3 ? Int64(words[2]) : nil
            guard (words[0] == "dial" && value != nil) || (words[0] == "read" && words.count == 2) else {
                Console.printToError(
                    "dial: write 'dial PROPERTY VALUE', 'read PROPERTY', 'shoot', 'confirm' or 'decline', such as 'dial iso 1600'"
                )
                continue
            }
            let name = words[1].lowercased()
            let code =
                CameraSimulator.dialNames[name]
                ?? (name.hasPrefix("0x")
                    ? UInt16(name.dropFirst(2), radix: 16).map { PTPDevicePropertyCode(rawValue: $0) } : nil)
            guard let code else {
                let names = CameraSimulator.dialNames.keys.sorted().joined(separator: ", ")
                Console.printToError("dial: no dial '\(name)'; the dials are \(names), or a code such as 0x500F")
                continue
            }
            guard let value else {
                Console.print("read: \(name) is \(simulator.dialValue(code).map(String.init) ?? "not a number")")
                continue
            }
            do throws(ViewfinderError) {
                try simulator.turnDial(code, to: value)
                Console.print("dial: \(name) is now \(value)")
            } catch {
                Console.printToError("dial: \(error.message)")
            }
        }
    }
}
