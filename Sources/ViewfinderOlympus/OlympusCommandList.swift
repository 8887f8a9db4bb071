import ViewfinderCore
import ViewfinderDiscovery

/// The commands an Olympus or OM System camera says it answers, read from its `get_commandlist.cgi`: each command's
/// HTTP method and the arguments and values it takes, the versions and the functions it supports.
///
/// Clients send only what the list holds, as the camera's own app does; ``accepts(_:_:)`` says whether a request
/// is in it.
///
/// ```swift
/// let list = try OlympusCommandList(parsing: answer.body)
/// list.accepts("switch_cammode", [("mode", "shutter")])        // whether the camera has a shutter mode
/// list.values(of: "lvqty", in: "switch_cammode", after: [("mode", "rec")])   // its live view sizes
/// ```
package struct OlympusCommandList: Sendable, Equatable {
    /// How a command is sent.
    package enum Method: String, Sendable, Equatable {
        /// A GET with the arguments in the query.
        case get
        /// A POST with the arguments in the query and an XML body.
        case post
    }

    /// An argument a command takes: its name and the values it takes, or any value when ``values`` is empty.
    package struct Argument: Sendable, Equatable {
        /// The name, such as `mode`.
        package var name: String
        /// The values it takes, each with the arguments that may follow it; empty for any value.
        package var values: [Value]
    }

    /// A value an argument takes and the arguments that may follow it.
    package struct Value: Sendable, Equatable {
        /// The value, such as `rec`; `nil` for any value.
        package var name: String?
        /// The arguments that may follow the value.
        package var following: [Argument]
    }

    /// A command: its method and the arguments it takes first.
    package struct Command: Sendable, Equatable {
        /// How it is sent.
        package var method: Method
        /// The arguments it takes first.
        package var arguments: [Argument]
    }

    /// The commands by name, such as `get_camprop`.
    package var commands: [String: Command]
    /// The versions by element name, such as `version` → `4.20`.
    package var versions: [String: String]
    /// The functions listed as supported, such as `web`.
    package var supportedFunctions: Set<String>

    /// Reads a command list.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for XML out of form, a command without a name or with a method
    ///   other than get or post.
    package init(parsing body: [UInt8]) throws(ViewfinderError) {
        let document = try XMLElements(body, from: "the camera's command list", maximumLength: 1 << 20)
        let elements = document.elements
        var children = [[Int]](repeating: [], count: elements.count)
        for (position, element) in elements.enumerated() {
            if let parent = element.parent { children[parent].append(position) }
        }
        func arguments(under position: Int) -> [Argument] {
            children[position].filter { elements[$0].name.hasPrefix("cmd") }.map { argument in
                Argument(
                    name: elements[argument]["name"] ?? "",
                    values: children[argument].filter { elements[$0].name.hasPrefix("param") }.map { value in
                        Value(name: elements[value]["name"], following: arguments(under: value))
                    })
            }
        }
        commands = [:]
        versions = [:]
        supportedFunctions = []
        for position in children.isEmpty ? [] : children[0] {
            let element = elements[position]
            switch element.name {
            case "cgi":
                guard let name = element["name"] else {
                    throw ViewfinderError(.malformedData, "the camera's command list has a <cgi> without a name")
                }
                guard let methodPosition = children[position].first(where: { elements[$0].name == "http_method" })
                else { continue }
                let type = elements[methodPosition]["type"] ?? ""
                guard let method = Method(rawValue: type) else {
                    throw ViewfinderError(
                        .malformedData, "the camera's command list sends \(name) by '\(type)', not get or post")
                }
                commands[name] = Command(method: method, arguments: arguments(under: methodPosition))
            case "support":
                if let function = element["func"] { supportedFunctions.insert(function) }
            case let name where name.contains("version"):
                versions[name] = element.text
            default:
                continue
            }
        }
    }

    /// Whether the list holds `command` with `arguments`, in order, each value one the argument takes.
    package func accepts(_ command: String, _ arguments: [(name: String, value: String)]) -> Bool {
        guard var offered = commands[command]?.arguments else { return false }
        for (name, value) in arguments {
            guard let argument = offered.first(where: { $0.name == name }) else { return false }
            if argument.values.isEmpty {
                offered = []
            } else if let taken = argument.values.first(where: { $0.name == value || $0.name == nil }) {
                offered = taken.following
            } else {
                return false
            }
        }
        return true
    }

    /// The values the list offers for `argument` of `command` after `arguments`, such as the live view sizes of
    /// `switch_cammode` after `mode=rec`; empty when it takes any value or is not there.
    package func values(
        of argument: String, in command: String, after arguments: [(name: String, value: String)] = []
    ) -> [String] {
        guard var offered = commands[command]?.arguments else { return [] }
        for (name, value) in arguments {
            guard let taken = offered.first(where: { $0.name == name })?.values.first(where: { $0.name == value })
            else { return [] }
            offered = taken.following
        }
        return offered.first { $0.name == argument }?.values.compactMap(\.name) ?? []
    }
}
