import ViewfinderDiscovery

/// What a Lumix's menus say about its settings: the values each `setsetting` type takes (`getinfo&type=allmenu`),
/// and which of them the camera allows now and which it has (`getinfo&type=curmenu`).
///
/// The menu list names each choice by an item id with its command, such as `menu_item_id_whitebalance_daylight`
/// for `setsetting&type=whitebalance&value=daylight`, inside the item that owns the setting
/// (`menu_item_id_whitebalance`); the current menu says per item id whether it is enabled, and gives the owner's
/// value.
package struct LumixMenus: Sendable, Equatable {
    /// A setting's choices in the menu list.
    package struct Setting: Sendable, Equatable {
        /// The id of the menu item that owns the setting, whose current value the current menu gives.
        package var owner: String
        /// The choices, each a menu item id and the value it sets, in the camera's order.
        package var choices: [Choice]
    }

    /// A choice: the menu item's id and the value `setsetting` sends.
    package struct Choice: Sendable, Equatable {
        /// The menu item's id.
        package var id: String
        /// The value.
        package var value: String
    }

    /// The settings by their `setsetting` type, such as `iso` or `whitebalance`.
    package private(set) var settings: [String: Setting] = [:]

    /// No menus: a body that does not answer for them.
    package init() {}

    /// Reads the menu list: every item that sets a value with `setsetting` and no second value.
    package init(allMenu document: XMLElements) {
        let elements = document.elements
        for element in elements where element.name == "item" && element["cmd_mode"] == "setsetting" {
            guard let type = element["cmd_type"], let value = element["cmd_value"], let id = element["id"],
                element["cmd_value2"] == nil
            else { continue }
            var parent = element.parent
            while let position = parent, elements[position].name != "item" || elements[position]["cmd_type"] != nil {
                parent = elements[position].parent
            }
            guard let owner = parent.flatMap({ elements[$0]["id"] }) else { continue }
            if settings[type] == nil {
                settings[type] = Setting(owner: owner, choices: [])
            }
            if settings[type]?.owner == owner, settings[type]?.choices.contains(where: { $0.value == value }) == false {
                settings[type]?.choices.append(Choice(id: id, value: value))
            }
        }
    }

    /// The current menu: for each item id, whether it is enabled and its value.
    package struct Current: Sendable, Equatable {
        /// Whether each listed item is enabled.
        package var enabled: [String: Bool] = [:]
        /// The value of each item that gives one.
        package var values: [String: String] = [:]

        /// Nothing known.
        package init() {}

        /// Reads the current menu.
        package init(_ document: XMLElements) {
            for element in document.elements where element.name == "item" {
                guard let id = element["id"] else { continue }
                if let enable = element["enable"] {
                    enabled[id] = enable == "yes"
                }
                if let value = element["value"] {
                    values[id] = value
                }
            }
        }
    }

    /// The values of the setting `type` that the camera allows now: its choices whose items are enabled, or not
    /// listed as disabled.
    package func allowedValues(of type: String, now current: Current) -> [String] {
        guard let setting = settings[type], current.enabled[setting.owner] != false else { return [] }
        return setting.choices.filter { current.enabled[$0.id] != false }.map(\.value)
    }

    /// The current value of the setting `type`, as the current menu gives it for the item that owns it.
    package func currentValue(of type: String, in current: Current) -> String? {
        settings[type].flatMap { current.values[$0.owner] }
    }
}
