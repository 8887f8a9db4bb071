import Viewfinder

/// `viewfinder camera info`: what the camera is, what it can do, and its storages.
enum CameraInfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Print the camera's model, maker, serial number, address, abilities, battery and storages.",
        options: CameraTarget.options + [.json],
        examples: [
            Example(commandLine: "camera info", comment: "The camera at the default gateway."),
            Example(
                commandLine: "camera info --host 127.0.0.1:15740 --json", comment: "The simulated camera, as JSON."),
        ]
    )

    /// A storage as `info` shows it.
    struct StorageRecord: Encodable {
        var id: UInt32
        var description: String
        var volumeLabel: String
        var capacityBytes: UInt64?
        var freeBytes: UInt64?
        var isWritable: Bool

        init(_ storage: CameraStorage) {
            id = storage.id
            description = storage.storageDescription
            volumeLabel = storage.volumeLabel
            capacityBytes = storage.capacityByteCount
            freeBytes = storage.freeByteCount
            isWritable = storage.isWritable
        }

        var line: String {
            let name = [volumeLabel, description].first { !$0.isEmpty } ?? "storage \(id)"
            let free = freeBytes.map { ProgressBar.bytes(Int64(clamping: $0)) + " free" }
            let capacity = capacityBytes.map { "of " + ProgressBar.bytes(Int64(clamping: $0)) }
            let space = [free, capacity].compactMap { $0 }.joined(separator: " ")
            return name + (space.isEmpty ? "" : ": \(space)") + (isWritable ? "" : " (read-only)")
        }
    }

    private struct Report: Encodable {
        var camera: CameraRecord
        var battery: String?
        var storages: [StorageRecord]
        /// Why the storages could not be read, when the camera refused to list them.
        var storagesUnavailable: String?
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let report = try await CameraTarget(arguments).withConnectedCamera { camera in
            var storages: [CameraStorage] = []
            var unavailable: String?
            if camera.supportedFunctionality.contains(.fileAccess) {
                do {
                    storages = try await camera.fileAccess?.storages() ?? []
                } catch let error as ViewfinderError where error.code == .protocolFailure {
                    // A camera that refuses to list its storages still has the rest to show, as gphoto2 shows it.
                    unavailable = error.message
                }
            }
            return Report(
                camera: CameraRecord(camera),
                battery: camera.property(for: .batteryLevel).currentValue?.localizedDisplayValue,
                storages: storages.map(StorageRecord.init), storagesUnavailable: unavailable)
        }
        if arguments.flag("json") {
            try Console.printJSON(report)
            return
        }
        report.camera.lines.forEach(Console.print)
        let abilities = report.camera.functionality
        Console.print("  abilities      \(abilities.isEmpty ? "none" : abilities.joined(separator: ", "))")
        if let battery = report.battery {
            Console.print("  battery        \(battery)")
        }
        for storage in report.storages {
            Console.print("  storage        \(storage.line)")
        }
        if let unavailable = report.storagesUnavailable {
            Console.print("  storage        not listed: \(unavailable)")
        }
    }
}
