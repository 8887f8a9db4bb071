import ViewfinderCore

/// The elements of an XML document in document order, each with its name, attributes, text and parent: what UPnP
/// device descriptions and cameras' XML answers are read with.
///
/// The reader is one pass over at most the bytes it is told to read: it expands no entity beyond XML's five and
/// character references, refuses a DTD (where entity bombs live), nesting deeper than it is told and more than
/// ``maximumElementCount`` elements, so hostile XML costs no more than its length.
///
/// ```swift
/// let document = try XMLElements(Array("<camrply><result>ok</result></camrply>".utf8), from: "the camera's answer")
/// document.first("result")?.text  // "ok"
/// ```
package struct XMLElements: Sendable {
    /// One element.
    package struct Element: Sendable, Equatable {
        /// The name without a namespace prefix, such as `settingvalue`.
        package var name: String
        /// The attributes in the order written, their values unescaped.
        package var attributes: [(name: String, value: String)]
        /// The text directly inside the element up to its first child or end, unescaped and trimmed.
        package var text: String
        /// The position of the enclosing element in ``XMLElements/elements``; `nil` for the root.
        package var parent: Int?

        /// The value of the attribute named `name`.
        package subscript(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        /// Whether two elements have the same name, attributes in order, text and parent.
        package static func == (lhs: Element, rhs: Element) -> Bool {
            lhs.name == rhs.name && lhs.text == rhs.text && lhs.parent == rhs.parent
                && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
                && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
        }
    }

    /// The most elements read.
    package static let maximumElementCount = 50_000

    /// Every element, in document order.
    package private(set) var elements: [Element] = []

    /// Reads a document of at most `maximumLength` bytes.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - source: What the document is, for messages, such as `a device description`.
    ///   - maximumLength: The longest document read.
    ///   - maximumDepth: The deepest nesting read.
    /// - Throws: ``ViewfinderError/Code/malformedData`` for a document that is too long, too deep or has too many
    ///   elements, has a DTD, a tag or comment that does not end, or end tags that do not match.
    package init(_ bytes: [UInt8], from source: String, maximumLength: Int = 4 << 20, maximumDepth: Int = 32)
        throws(ViewfinderError)
    {
        guard bytes.count <= maximumLength else {
            throw ViewfinderError(
                .malformedData, "\(source) of \(bytes.count) bytes is longer than \(maximumLength >> 10) KiB")
        }
        func malformed(_ what: String) -> ViewfinderError {
            ViewfinderError(.malformedData, "\(source) \(what)")
        }
        var open: [Int] = []
        var index = 0
        var textStart: Int?
        while let less = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            if let start = textStart, let current = open.last, elements[current].text.isEmpty {
                elements[current].text = Self.unescaped(bytes[start..<less])
            }
            textStart = nil
            let tagEnd: Int
            if bytes[less...].starts(with: Array("<!--".utf8)) {
                guard let end = Self.find(Array("-->".utf8), in: bytes, from: less + 4) else {
                    throw malformed("has a comment that does not end")
                }
                index = end + 3
                continue
            }
            guard let greater = bytes[less...].firstIndex(of: UInt8(ascii: ">")) else {
                throw malformed("has a tag at byte \(less) that does not end")
            }
            tagEnd = greater
            index = tagEnd + 1
            let tag = bytes[(less + 1)..<tagEnd]
            switch tag.first {
            case UInt8(ascii: "?"):
                continue
            case UInt8(ascii: "!"):
                guard !tag.starts(with: Array("!DOCTYPE".utf8)) else {
                    throw malformed("declares a DTD, which it need not")
                }
                continue
            case UInt8(ascii: "/"):
                let name = Self.name(of: tag.dropFirst())
                guard let current = open.last, elements[current].name == name else {
                    throw malformed("closes <\(name)> out of order")
                }
                open.removeLast()
            default:
                guard elements.count < Self.maximumElementCount else {
                    throw malformed("holds more than \(Self.maximumElementCount) elements")
                }
                let selfClosing = tag.last == UInt8(ascii: "/")
                let body = selfClosing ? tag.dropLast() : tag
                let name = Self.name(of: body)
                guard !name.isEmpty else { throw malformed("has a tag without a name at byte \(less)") }
                let attributes = try Self.attributes(in: body.dropFirst(body.prefix { !Self.isSpace($0) }.count)) {
                    malformed("has an attribute out of form in <\(name)>")
                }
                elements.append(Element(name: name, attributes: attributes, text: "", parent: open.last))
                if !selfClosing {
                    open.append(elements.count - 1)
                    guard open.count <= maximumDepth else {
                        throw malformed("nests deeper than \(maximumDepth) elements")
                    }
                    textStart = index
                }
            }
        }
        guard open.isEmpty else { throw malformed("ends inside <\(elements[open[open.count - 1]].name)>") }
        guard !elements.isEmpty else { throw malformed("holds no element") }
    }

    /// The first element named `name`.
    package func first(_ name: String) -> Element? {
        elements.first { $0.name == name }
    }

    /// The elements whose parent is the element at `position`.
    package func children(of position: Int) -> [Element] {
        elements.filter { $0.parent == position }
    }

    /// The positions of the elements named `name`.
    package func positions(of name: String) -> [Int] {
        elements.indices.filter { elements[$0].name == name }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// A tag's element name without its attributes or namespace prefix.
    private static func name(of tag: ArraySlice<UInt8>) -> String {
        let name = tag.prefix { !isSpace($0) && $0 != UInt8(ascii: "/") }
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        return String(decoding: local, as: UTF8.self)
    }

    /// The `name="value"` pairs of a tag after its name.
    private static func attributes(
        in text: ArraySlice<UInt8>, malformed: () -> ViewfinderError
    ) throws(ViewfinderError) -> [(name: String, value: String)] {
        var attributes: [(name: String, value: String)] = []
        var rest = text.drop { isSpace($0) }
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: UInt8(ascii: "=")) else { throw malformed() }
            let name = String(decoding: rest[..<equals].filter { !isSpace($0) }, as: UTF8.self)
            rest = rest[(equals + 1)...].drop { isSpace($0) }
            guard !name.isEmpty, let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
                let close = rest.dropFirst().firstIndex(of: quote)
            else { throw malformed() }
            let local = name.split(separator: ":").last.map(String.init) ?? name
            attributes.append((local, Self.unescaped(rest[(rest.startIndex + 1)..<close])))
            rest = rest[(close + 1)...].drop { isSpace($0) }
        }
        return attributes
    }

    /// Where `needle` first occurs in `bytes` at or after `start`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Text with XML's five entities and character references replaced, and spaces at the ends trimmed.
    package static func unescaped(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "&"),
                let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";"))
            else {
                let next = bytes[index...].dropFirst().firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
                text += String(decoding: bytes[index..<next], as: UTF8.self)
                index = next
                continue
            }
            let entity = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            let replacement: String? =
                switch entity {
                case "amp": "&"
                case "lt": "<"
                case "gt": ">"
                case "quot": "\""
                case "apos": "'"
                case _ where entity.hasPrefix("#x"):
                    UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                case _ where entity.hasPrefix("#"):
                    UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                default: nil
                }
            if let replacement {
                text += replacement
                index = semicolon + 1
            } else {
                text += "&"
                index += 1
            }
        }
        return text.trimmingWhitespace
    }

    /// `text` with `&`, `<`, `>` and `"` written as entities, for XML text and attribute values.
    package static func escaped(_ text: String) -> String {
        text.map { character -> String in
            switch character {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            default: String(character)
            }
        }.joined()
    }
}
