import Viewfinder

/// `viewfinder set-control DEVICE NAME VALUE`: sets a capture device's control.
enum SetControlCommand: Command {
    static let spec = CommandSpec(
        name: "set-control",
        abstract: "Set a capture device's control, such as brightness, and show the value the driver kept.",
        discussion: """
            NAME is a control's name as 'controls' lists it, in any case, with spaces, dashes or underscores \
            between words ('gain_automatic', "Gain, Automatic"), or its id (0x00980900). VALUE is a number within \
            the control's range, on or off for switches, a menu entry's name or number, or 'default'. Controls \
            belong to the device: the value stays after the command ends, also for other programs.
            """,
        arguments: [
            DeviceLookup.argument,
            ArgumentSpec(name: "NAME", help: "The control, as 'viewfinder controls DEVICE' names it."),
            ArgumentSpec(name: "VALUE", help: "A number, on/off, a menu entry (name or number) or 'default'."),
        ],
        examples: [
            Example(commandLine: "set-control /dev/video0 brightness 200", comment: "Sets the brightness to 200."),
            Example(
                commandLine: "set-control 0 white_balance_automatic off",
                comment: "Turns automatic white balance off."),
            Example(
                commandLine: "set-control vivid test_pattern '100% Colorbar'",
                comment: "Chooses a menu entry by its name."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let device = try DeviceLookup.device(named: try arguments.positional(0, named: "DEVICE"))
        let name = try arguments.positional(1, named: "NAME")
        let text = try arguments.positional(2, named: "VALUE")
        let control = try find(name, in: try CameraSource.controls(for: device), of: device)
        guard !control.isReadOnly else {
            throw CommandFailure(
                "\(control.key) of \(device) is read-only or disabled right now", exitStatus: ExitStatus.badValue)
        }
        let value = try control.value(from: text)
        let before = control.hasReadableValue ? try? CameraSource.value(ofControl: control.id, on: device) : nil
        let kept: Int32
        do {
            kept = try CameraSource.setValue(value, ofControl: control.id, on: device)
        } catch {
            throw CommandFailure(
                "\(device) did not take \(control.key) = \(control.describe(Int64(value))): \(error.message)",
                hint: control.isInactive
                    ? "\(control.key) is inactive: an automatic mode may be on; turn it off first." : nil,
                exitStatus: ExitStatus.of(error))
        }
        guard control.type != .button else {
            Console.print("\(control.key): pressed")
            return
        }
        var line = "\(control.key) = \(control.describe(Int64(kept)))"
        if let before { line += " (was \(control.describe(Int64(before))))" }
        if kept != value { line += "; the driver adjusted \(value) to \(kept)" }
        Console.print(line)
        if control.isInactive {
            Console.printToError("note: \(control.key) is inactive, so an automatic mode may override it.")
        }
    }

    /// The control `name` names, by key or id.
    private static func find(_ name: String, in controls: [V4L2ControlInfo], of device: CaptureDevice) throws
        -> V4L2ControlInfo
    {
        let key = V4L2ControlInfo.key(name)
        let id = name.lowercased().hasPrefix("0x") ? UInt32(name.dropFirst(2), radix: 16) : nil
        if let control = controls.first(where: { $0.key == key || $0.id == id }) {
            return control
        }
        let similar = controls.filter { $0.key.contains(key) || (key.contains($0.key) && $0.key.count >= 3) }
        let suggestion = similar.isEmpty ? "" : " (did you mean \(similar.map(\.key).joined(separator: " or "))?)"
        throw CommandFailure(
            "\(device) has no control '\(name)'\(suggestion); its controls: "
                + controls.map(\.key).joined(separator: ", "),
            hint: "Run 'viewfinder controls \(device.path)' for their types and ranges.",
            exitStatus: ExitStatus.notFound)
    }
}
