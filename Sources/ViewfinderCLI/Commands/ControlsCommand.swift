import Viewfinder

/// `viewfinder controls DEVICE`: lists a capture device's controls with their ranges and current values.
enum ControlsCommand: Command {
    static let spec = CommandSpec(
        name: "controls",
        abstract: "List a capture device's controls: type, range, step, default, current value and menu entries.",
        discussion: """
            The NAME column is what 'set-control' takes. Menu controls list their entries below them, the current \
            one marked with '*'. Flags: 'ro' read-only or disabled, 'inactive' set aside by an automatic mode.
            """,
        options: [.json],
        arguments: [DeviceLookup.argument],
        examples: [
            Example(commandLine: "controls /dev/video0", comment: "A table of the controls of /dev/video0."),
            Example(commandLine: "controls 0 --json", comment: "The controls of the first device, as JSON."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let device = try DeviceLookup.device(named: try arguments.positional(0, named: "DEVICE"))
        let controls = try CameraSource.controls(for: device)
        let values = controls.map { control -> Int64? in
            guard control.hasReadableValue else { return nil }
            return (try? CameraSource.value(ofControl: control.id, on: device)).map(Int64.init)
        }
        if arguments.flag("json") {
            try Console.printJSON(zip(controls, values).map { ControlRecord($0, value: $1) })
            return
        }
        guard !controls.isEmpty else {
            Console.print("\(device) has no controls.")
            return
        }
        var rows: [[String]] = []
        for (control, value) in zip(controls, values) {
            var flags: [String] = []
            if control.isReadOnly { flags.append("ro") }
            if control.isInactive { flags.append("inactive") }
            let isMenu = control.type == .menu || control.type == .integerMenu
            // Menu values are shown as their numbers; the entries below name them.
            let cell = { (value: Int64) in isMenu ? String(value) : control.describe(value) }
            rows.append([
                control.key, control.typeName, control.hasReadableValue ? cell(control.defaultValue) : "-",
                value.map(cell) ?? "-", flags.joined(separator: ","),
                isMenu ? "\(control.menu.count) entries:" : control.rangeDescription,
            ])
            guard isMenu else { continue }
            for entry in control.menu {
                rows.append(["", "", "", "", "", "\(entry.index == value ? "*" : " ") \(entry.index): \(entry.name)"])
            }
        }
        Console.print("\(device): \(controls.count) controls")
        Console.printTable(header: ["NAME", "TYPE", "DEFAULT", "VALUE", "FLAGS", "RANGE"], rows: rows)
    }
}
