import Viewfinder

extension V4L2ControlInfo {
    /// The name people type: the driver's name in lower case, words joined by underscores (`gain_automatic`).
    var key: String { Self.key(name) }

    /// Reduces a control or menu-entry name to the form names are compared in: lower case, runs of anything but
    /// letters and digits as one underscore, none at the ends (`Gain, Automatic` → `gain_automatic`).
    static func key(_ name: String) -> String {
        var key = ""
        var pendingSeparator = false
        for character in name.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingSeparator && !key.isEmpty { key.append("_") }
                key.append(character)
                pendingSeparator = false
            } else {
                pendingSeparator = true
            }
        }
        return key
    }

    /// The type as `controls` shows it.
    var typeName: String {
        switch type {
        case .integer: "int"
        case .boolean: "bool"
        case .menu: "menu"
        case .button: "button"
        case .integer64: "int64"
        case .string: "string"
        case .bitmask: "bitmask"
        case .integerMenu: "intmenu"
        case .other(let number): "type \(number)"
        }
    }

    /// Whether the value can be read with a plain control read: buttons have none, strings and 64-bit values need
    /// the extended calls.
    var hasReadableValue: Bool {
        switch type {
        case .integer, .boolean, .menu, .integerMenu, .bitmask: true
        default: false
        }
    }

    /// The valid values, for messages and the `controls` table, such as `0...255 step 1` or `off, on`.
    var rangeDescription: String {
        switch type {
        case .boolean: "off, on"
        case .menu, .integerMenu: menu.map { "\($0.index): \($0.name)" }.joined(separator: ", ")
        case .button: "(press)"
        case .bitmask: "mask 0x\(String(maximum, radix: 16))"
        case .integer, .integer64: step == 1 ? "\(minimum)...\(maximum)" : "\(minimum)...\(maximum) step \(step)"
        default: "-"
        }
    }

    /// A value written for people: the menu entry's name, `on`/`off`, or the number.
    func describe(_ value: Int64) -> String {
        switch type {
        case .boolean: return value == 0 ? "off" : "on"
        case .menu, .integerMenu: return menu.first { $0.index == value }.map { "\($0.name) (\(value))" } ?? "\(value)"
        case .bitmask: return "0x" + String(UInt32(truncatingIfNeeded: value), radix: 16)
        default: return "\(value)"
        }
    }

    /// The value `text` stands for: a number in range, `on`/`off`, a menu entry's name or index, or `default`.
    ///
    /// - Throws: ``CommandFailure`` saying which values the control takes.
    func value(from text: String) throws -> Int32 {
        if case .string = type { throw notSettable }
        if case .other = type { throw notSettable }
        let lowered = text.lowercased()
        let number: Int64?
        switch type {
        case _ where lowered == "default":
            number = defaultValue
        case .boolean:
            number =
                ["on", "true", "yes", "1"].contains(lowered)
                ? 1 : ["off", "false", "no", "0"].contains(lowered) ? 0 : nil
        case .menu:
            let byName = menu.first { Self.key($0.name) == Self.key(text) }
            number = byName?.index ?? Self.integer(text).flatMap { index in menu.first { $0.index == index }?.index }
        case .integerMenu:
            number = Self.integer(text).flatMap { wanted in menu.first { $0.value == wanted }?.index }
        case .button:
            number = 1
        case .integer, .integer64:
            number = Self.integer(text).flatMap { value in
                minimum <= value && value <= maximum
                    && UInt64(bitPattern: value &- minimum) % UInt64(max(step, 1)) == 0 ? value : nil
            }
        case .bitmask:
            number = Self.integer(text).flatMap { $0 >= 0 && $0 & ~maximum == 0 ? $0 : nil }
        case .string, .other:
            throw notSettable
        }
        guard let number else {
            throw CommandFailure(
                "\(key) does not take '\(text)'; it takes \(valuesDescription)", exitStatus: ExitStatus.badValue)
        }
        // A bit mask travels in the same 32 bits as a signed value.
        let bits = type == .bitmask ? Int64(Int32(truncatingIfNeeded: number)) : number
        guard let narrow = Int32(exactly: bits) else {
            throw CommandFailure(
                "\(key) = \(number) does not fit in 32 bits, which viewfinder cannot set yet",
                exitStatus: ExitStatus.badValue)
        }
        return narrow
    }

    private var notSettable: CommandFailure {
        CommandFailure("\(key) is a \(typeName) control, which viewfinder cannot set", exitStatus: ExitStatus.badValue)
    }

    /// The values the control takes, as a phrase for error messages.
    private var valuesDescription: String {
        switch type {
        case .boolean: "on or off"
        case .menu: "one of \(rangeDescription) (the name or the number)"
        case .integerMenu: "one of \(menu.map(\.name).joined(separator: ", "))"
        case .integer, .integer64:
            step == 1
                ? "a whole number from \(minimum) to \(maximum)"
                : "a whole number from \(minimum) to \(maximum) in steps of \(step)"
        case .bitmask: "a bit mask within 0x\(String(maximum, radix: 16))"
        default: "no value"
        }
    }

    /// A whole number in decimal, or hexadecimal after `0x`.
    private static func integer(_ text: String) -> Int64? {
        let lowered = text.lowercased()
        if lowered.hasPrefix("0x") { return Int64(lowered.dropFirst(2), radix: 16) }
        return Int64(lowered)
    }
}
