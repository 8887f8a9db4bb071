import Viewfinder

/// `viewfinder devices`: lists the V4L2 capture devices.
enum DevicesCommand: Command {
    static let spec = CommandSpec(
        name: "devices",
        abstract: "List the V4L2 capture devices (webcams, capture cards) on this machine.",
        discussion: """
            Lists every /dev/videoN node that captures video through streaming buffers, with the number other \
            commands accept in place of the path. Nodes this user cannot open are left out; the tool says so. \
            Finding none is not an error: the list is empty and the tool says what to check.
            """,
        options: [.json],
        examples: [
            Example(commandLine: "devices", comment: "A table of the capture devices."),
            Example(commandLine: "devices --json", comment: "The same as JSON, for scripts."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let devices = CameraSource.captureDevices
        if arguments.flag("json") {
            try Console.printJSON(devices.map(DeviceRecord.init))
            return
        }
        guard !devices.isEmpty else {
            let failure = DeviceLookup.noDevices()
            Console.printToError("No capture devices: \(failure.message).")
            if let hint = failure.hint { Console.printToError(hint) }
            return
        }
        let rows = devices.enumerated().map { number, device in
            [String(number), device.path, device.name, device.driver, device.bus, "\(device.deviceType)"]
        }
        Console.printTable(header: ["#", "DEVICE", "NAME", "DRIVER", "BUS", "TYPE"], rows: rows)
    }
}
