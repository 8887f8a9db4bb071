import Viewfinder

/// What a camera property shows at one moment: its value and the values it can be set to.
struct PropertyReading: Encodable, Equatable, Sendable {
    /// The name on the command line, such as `iso`.
    var name: String
    /// The property's name for people, such as `ISO`.
    var displayName: String
    /// The current value as the camera shows it, such as `ISO 800`; `nil` when the camera does not report one.
    var value: String?
    /// The values it can be set to now, in the camera's order; a long range is given by its ends in ``settableRange``.
    var settableValues: [String]
    /// A range of settable values too long to list: its first and last values and how many there are.
    var settableRange: SettableRange?
    /// How the values are given, by the API's names: `enumeration`, `numericRange`, `stepping` (the camera moves
    /// the value a step up or down without listing the values) or `none`.
    var valueSetType = "enumeration"
    /// What kind of setting or reading the property is, by the API's name, such as `exposureSetting`.
    var category = CameraPropertyCategory.unknown.rawValue

    /// The ends and size of a long range of values.
    struct SettableRange: Encodable, Equatable, Sendable {
        var first: String
        var last: String
        var count: Int
    }

    /// Whether the camera has the property: it reports a value or values to set.
    var isReported: Bool { value != nil || isSettable }

    /// Whether the property can be set now.
    var isSettable: Bool { valueSetType == "stepping" || !settableValues.isEmpty || settableRange != nil }

    /// How the values are set, short, for a table: `list`, `range`, `steps` or `-`.
    var settableKind: String {
        switch valueSetType {
        case "stepping": "steps"
        case "numericRange": "range"
        case _ where isSettable: "list"
        default: "-"
        }
    }

    /// The settable values for people, short enough for a table row: a few values in full, the ends and size of
    /// longer lists and ranges; "read-only" when there are none.
    var settableSummary: String {
        if valueSetType == "stepping" {
            return "a step up or down at a time (set \(name) up, set \(name) down)"
        }
        if let settableRange {
            return "\(settableRange.first) to \(settableRange.last) (\(settableRange.count) values)"
        }
        guard settableValues.count > Self.valuesListedInFull else {
            return settableValues.isEmpty ? "read-only" : settableValues.joined(separator: ", ")
        }
        let count = settableValues.count
        return "\(settableValues[0]), \(settableValues[1]), … \(settableValues[count - 1]) (\(count) values)"
    }

    /// The most settable values a summary lists one by one.
    static let valuesListedInFull = 8
}
