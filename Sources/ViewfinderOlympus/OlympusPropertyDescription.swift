import ViewfinderCore
import ViewfinderDiscovery

/// A property an Olympus or OM System camera describes in `get_camprop.cgi?com=desc&propname=desclist`: its name,
/// whether it can be set, its value and the values it takes.
package struct OlympusPropertyDescription: Sendable, Equatable {
    /// The name, such as `isospeedvalue`.
    package var name: String
    /// Whether the camera takes a new value (attribute `getset`) rather than only giving it (`get`).
    package var isSettable: Bool
    /// The value now, such as `Auto`.
    package var value: String
    /// The values it takes, in the camera's order; empty for a property that lists none.
    package var values: [String]

    /// Reads a `desclist` answer.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for XML out of form, a root other than `desclist` or a
    ///   description without a name.
    package static func list(parsing body: [UInt8]) throws(ViewfinderError) -> [Self] {
        let document = try XMLElements(body, from: "the camera's property descriptions", maximumLength: 1 << 20)
        let elements = document.elements
        guard elements.first?.name == "desclist" else {
            throw ViewfinderError(
                .malformedData,
                "the camera described its properties in <\(elements.first?.name ?? "")>, not <desclist>")
        }
        var fields = [[String: String]](repeating: [:], count: elements.count)
        var order: [Int] = []
        for element in elements {
            guard let parent = element.parent, elements[parent].name == "desc",
                elements[parent].parent == 0
            else { continue }
            if fields[parent].isEmpty { order.append(parent) }
            fields[parent][element.name] = element.text
        }
        return try order.map { position throws(ViewfinderError) in
            let description = fields[position]
            guard let name = description["propname"], !name.isEmpty else {
                throw ViewfinderError(.malformedData, "the camera described a property without a name")
            }
            return OlympusPropertyDescription(
                name: name, isSettable: description["attribute"] == "getset", value: description["value"] ?? "",
                values: (description["enum"] ?? "").split(separator: " ").map(String.init))
        }
    }
}
