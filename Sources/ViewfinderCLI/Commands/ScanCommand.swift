import Foundation
import Viewfinder

/// `viewfinder scan`: reads barcodes from a capture device, a network camera's live view, or image files.
enum ScanCommand: Command {
    static let spec = CommandSpec(
        name: "scan",
        abstract: "Read barcodes from a capture device, a network camera's live view, or JPEG and PNG files.",
        discussion: """
            Prints each code as it is newly recognised: its symbology, then its text. From a device or a camera it \
            reads frames until --count codes are found, --timeout passes, or Ctrl-C; a code that stays in view is \
            printed once, and again once it has been out of view for --duplicate-filter seconds. Frames that come \
            while one is read are dropped, so a slow read never builds up a delay. With --image it reads each file \
            once, reading harder than it does a stream, and fails when no file holds a code. 'camera' instead of \
            DEVICE reads a network camera's live view, found as 'viewfinder discover' finds it. --json prints one \
            JSON object a line for each code, with its corners and frame.
            """,
        options: [
            .value(
                "symbologies", "LIST",
                help:
                    "The symbologies to read, separated by commas (\(Symbology.allCases.map(\.rawValue).joined(separator: ", "))); "
                    + "all by default."),
            .value("count", "N", short: "n", help: "Stop after N codes (0: until --timeout or Ctrl-C).", default: "0"),
            .value("timeout", "SECONDS", help: "Give up after this long (0: never).", default: "0"),
            .value(
                "duplicate-filter", "SECONDS",
                help: "How long a code must be out of view before it is printed again; -1 prints each code once.",
                default: "1"),
            .value("format", "FORMAT", help: FormatSpecifier.help),
            .flag("image", help: "Read the image files named instead of a device."),
            .json,
        ] + CameraTarget.options,
        arguments: [
            ArgumentSpec(
                name: "DEVICE|camera|FILE...",
                help: "A capture device, as for 'formats'; 'camera' for a network camera; or files with --image.",
                isOptional: true, isRepeating: true)
        ],
        examples: [
            Example(commandLine: "scan /dev/video0", comment: "Prints codes held up to the webcam until Ctrl-C."),
            Example(
                commandLine: "scan 0 --symbologies qr,ean13 --count 1 --json",
                comment: "Waits for one QR or EAN-13 code and prints it as JSON."),
            Example(
                commandLine: "scan camera --host 192.168.1.1 --count 1 --timeout 30",
                comment: "Reads the network camera's live view until a code shows."),
            Example(commandLine: "scan --image label.png photo.jpg", comment: "Reads the codes in two image files."),
        ]
    )

    /// One code, as `--json` prints it.
    struct CodeRecord: Encodable {
        var symbology: String
        var name: String
        var text: String?
        var bytes: String
        var corners: [[Int]]
        var frame: UInt64?
        var file: String?

        init(_ barcode: Barcode, file: String? = nil) {
            symbology = barcode.symbology.rawValue
            name = barcode.symbology.description
            text = barcode.text
            bytes = barcode.rawBytes.map { String(format: "%02x", $0) }.joined()
            corners = barcode.location.corners.map { [$0.x, $0.y] }
            frame = file == nil ? barcode.frameSequenceNumber : nil
            self.file = file
        }
    }

    static func run(_ arguments: ParsedArguments) async throws {
        var settings = BarcodeCaptureSettings()
        if let list = arguments.value("symbologies") {
            settings.enabledSymbologies = try symbologies(list, commandPath: arguments.commandPath)
        }
        let filter = try arguments.seconds("duplicate-filter", default: 1, in: -1...86_400)
        settings.codeDuplicateFilter = filter < 0 ? .seconds(-1) : .milliseconds(Int(filter * 1000))
        let json = arguments.flag("json")
        if arguments.flag("image") {
            settings.tryHarder = true
            try readImages(arguments.positionals, settings: settings, json: json, commandPath: arguments.commandPath)
            return
        }
        let count = try arguments.integer("count", default: 0, in: 0...1_000_000)
        let timeout = try arguments.seconds("timeout", default: 0, in: 0...86_400)
        let scanner = StreamScanner(settings: settings, count: count, json: json)
        guard arguments.positionals.count <= 1 else {
            throw UsageError(
                "give one DEVICE, or 'camera'; several files go with --image", commandPath: arguments.commandPath)
        }
        let named = try arguments.positional(0, named: "DEVICE")
        if named == "camera" {
            try await CameraTarget(arguments).withConnectedCamera { camera in
                try require(.liveView, of: camera, else: "does not offer live view")
                let source = LiveViewFrameSource(camera: camera)
                try await scanner.scan(source, timeout: timeout, what: camera.deviceInfo?.model ?? "the camera") {
                    guard await source.switch(toDesiredState: .on) else {
                        throw CommandFailure("live view did not start", exitStatus: ExitStatus.unavailable)
                    }
                } stop: {
                    await source.switch(toDesiredState: .off)
                }
            }
            return
        }
        let specifier = try arguments.value("format").map {
            try FormatSpecifier($0, commandPath: arguments.commandPath)
        }
        let device = try DeviceLookup.device(named: named)
        let format = try specifier?.select(from: CameraSource.supportedFormats(for: device), device: device)
        let source = CameraSource(delegate: nil)
        try await scanner.scan(source, timeout: timeout, what: "\(device)") {
            let started = try await source.startCapture(device: device, formatIfGiven: format)
            if !json { Console.printToError("Reading codes from \(device) at \(FormatSpecifier.describe(started))") }
        } stop: {
            await source.stopCapture()
        }
    }

    /// The symbologies of a comma-separated list.
    static func symbologies(_ list: String, commandPath: String) throws -> Set<Symbology> {
        var found: Set<Symbology> = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let symbology = Symbology(name: name) else {
                throw UsageError(
                    "no symbology '\(name)'; choose from \(Symbology.allCases.map(\.rawValue).joined(separator: ", "))",
                    commandPath: commandPath)
            }
            found.insert(symbology)
        }
        guard !found.isEmpty else { throw UsageError("--symbologies needs at least one", commandPath: commandPath) }
        return found
    }

    /// Reads each file once and prints its codes; fails when none holds one.
    private static func readImages(
        _ files: [String], settings: BarcodeCaptureSettings, json: Bool, commandPath: String
    ) throws {
        guard !files.isEmpty else { throw UsageError("--image needs at least one FILE", commandPath: commandPath) }
        let reader = BarcodeReader(settings: settings)
        var found = 0
        for file in files {
            let image = try ImageFile.picture(atPath: file)
            let codes = try reader.read(image)
            found += codes.count
            for code in codes {
                if json {
                    try Console.printJSONLine(CodeRecord(code, file: file))
                } else {
                    Console.print("\(files.count > 1 ? file + ": " : "")\(code.symbology)\t\(code.text ?? hex(code))")
                }
            }
        }
        guard found > 0 else {
            throw CommandFailure(
                "no barcode found in \(files.count == 1 ? files[0] : "\(files.count) files")",
                hint: "Check that the code is sharp and whole, and that --symbologies includes its kind.")
        }
    }

    /// The bytes of a code without text, in hexadecimal.
    static func hex(_ barcode: Barcode) -> String {
        barcode.rawBytes.map { String(format: "%02x", $0) }.joined(separator: " ")
    }
}
