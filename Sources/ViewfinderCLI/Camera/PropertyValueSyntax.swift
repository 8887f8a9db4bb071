import Viewfinder

/// Reads property values as people write them: `800`, `1/250`, `f/8`, `+1/3`, `daylight`.
///
/// Each reader returns the meaning of a value; the command then finds the camera's settable value with that meaning.
enum PropertyValueSyntax {
    /// Text reduced for comparison: lower case, without spaces, with the minus sign as a hyphen and the fraction
    /// characters cameras show (`+1⅓`) as digits (`+11/3`, as `+1 1/3` reads).
    static func normalized(_ text: String) -> String {
        var result = ""
        for character in text.lowercased() where !character.isWhitespace {
            switch character {
            case "\u{2212}", "\u{2013}": result += "-"
            case "⅙": result += "1/6"
            case "⅓": result += "1/3"
            case "½": result += "1/2"
            case "⅔": result += "2/3"
            case "⅚": result += "5/6"
            default: result.append(character)
            }
        }
        return result
    }

    /// `800`, `ISO 800`, `iso800`, `auto`.
    static func iso(_ text: String) -> ISOValue? {
        var key = normalized(text)
        if key.hasPrefix("iso") { key.removeFirst(3) }
        if key == "auto" || key == "" { return key == "auto" ? .automatic : nil }
        return Int(key).flatMap(ISOValue.init)
    }

    /// `1/250`, `1/250s`, `0.5`, `2.5"`, `30s`, `30`, `bulb`: a fraction or a number of seconds.
    static func shutterSpeed(_ text: String) -> ShutterSpeedValue? {
        var key = normalized(text)
        if key == "bulb" || key == "b" { return .bulb }
        if key.hasSuffix("\"") || key.hasSuffix("s") { key.removeLast() }
        guard let seconds = number(key), seconds > 0 else { return nil }
        return ShutterSpeedValue(seconds: seconds)
    }

    /// `f/8`, `f8`, `8`, `5.6`, `auto`.
    static func aperture(_ text: String) -> ApertureValue? {
        var key = normalized(text)
        if key == "auto" { return .automatic }
        if key.hasPrefix("f/") {
            key.removeFirst(2)
        } else if key.hasPrefix("f") {
            key.removeFirst()
        }
        guard let fNumber = Double(key), fNumber > 0 else { return nil }
        return ApertureValue(fNumber: fNumber)
    }

    /// `+1/3`, `-2/3`, `+1 1/3`, `1.5`, `-1`, `0`, and the camera's own `+1⅓` and `−⅔`.
    static func exposureCompensation(_ text: String) -> ExposureCompensationValue? {
        // Whole stops and a fraction written apart ("+1 1/3") read as their sum.
        let words = text.split(whereSeparator: \.isWhitespace).map { normalized(String($0)) }
        guard (1...2).contains(words.count) else { return nil }
        var key = words.joined(separator: " ")
        var sign = 1.0
        if key.hasPrefix("-") || key.hasPrefix("+") {
            sign = key.hasPrefix("-") ? -1 : 1
            key.removeFirst()
        }
        let parts = key.split(separator: " ").map(String.init)
        let stops: Double
        if parts.count == 2 {
            guard let whole = Int(parts[0]), let fraction = number(parts[1]), fraction < 1 else { return nil }
            stops = Double(whole) + fraction
        } else if let value = parts.first.flatMap(number) {
            stops = value
        } else {
            return nil
        }
        return ExposureStops(approximately: sign * stops).map { ExposureCompensationValue(stops: $0) }
    }

    /// `MF`, `manual`, `AF`, `AF-S`, `single`, `AF-C`, `continuous`, `AF-A`, `macro`.
    static func focusMode(_ text: String) -> FocusModeValue? {
        let aliases: [String: FocusModeValue] = [
            "manual": .manual, "single": .singleAutoFocus, "oneshot": .singleAutoFocus,
            "continuous": .continuousAutoFocus, "servo": .continuousAutoFocus, "aiservo": .continuousAutoFocus,
            "automatic": .automaticAutoFocus, "aifocus": .automaticAutoFocus,
        ]
        return named(FocusModeValue.self, aliases: aliases)(text)
    }

    /// `auto`, `P`/`program`, `A`/`Av`/`aperture`, `S`/`Tv`/`shutter`, `M`/`manual`, `B`/`bulb`.
    static func exposureMode(_ text: String) -> AutoExposureModeValue? {
        let aliases: [String: AutoExposureModeValue] = [
            "program": .program, "av": .aperturePriority, "aperture": .aperturePriority,
            "aperturepriority": .aperturePriority, "tv": .shutterPriority, "shutter": .shutterPriority,
            "shutterpriority": .shutterPriority, "manual": .manual, "bulb": .bulb,
        ]
        return named(AutoExposureModeValue.self, aliases: aliases)(text)
    }

    /// `camera`/`card`, `computer`/`host`, `both`.
    static func imageDestination(_ text: String) -> ImageDestinationValue? {
        let aliases: [String: ImageDestinationValue] = [
            "card": .camera, "host": .connectedHost, "connectedhost": .connectedHost, "both": .cameraAndHost,
        ]
        return named(ImageDestinationValue.self, aliases: aliases)(text)
    }

    /// A reader of the values of an enumeration by the names cameras show, in any case and with or without hyphens
    /// (`continuous-high`, `Continuous High`), and by `aliases`.
    static func named<Value: CameraPropertyValue & CaseIterable>(
        _ type: Value.Type, aliases: [String: Value] = [:]
    ) -> @Sendable (String) -> Value? {
        let aliases = aliases
        return { text in
            let key = words(text)
            return Value.allCases.first { words($0.localizedDisplayValue) == key } ?? aliases[key]
        }
    }

    /// A movie frame size written WIDTHxHEIGHT, such as `1280x720`.
    static func videoRecordingFormat(_ text: String) -> VideoRecordingFormatValue? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        return VideoRecordingFormatValue(frameSize: Dimensions(width: width, height: height))
    }

    /// Text as lower-case letters and digits only, for names: "Self-Timer" and "self timer" are both "selftimer".
    private static func words(_ text: String) -> String {
        String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// A decimal number or a fraction such as `1/250`.
    private static func number(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return Double(text).flatMap { $0.isFinite ? $0 : nil }
        case 2:
            guard let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0,
                numerator.isFinite, denominator.isFinite
            else { return nil }
            return numerator / denominator
        default:
            return nil
        }
    }
}
