/// A JSON value, read from and written as UTF-8 text: the calls and answers of a camera API that speaks JSON-RPC,
/// read by its driver and by its simulator.
///
/// The reader takes bytes from a peer: it bounds the nesting (``maximumDepth``) and throws a clear error where the
/// text stops being JSON.
///
/// ```swift
/// let answer = try JSONValue(parsing: body)
/// let iso = answer["result"]?.array?.first?.string
/// ```
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The deepest nesting of arrays and objects a text may have.
    package static let maximumDepth = 32

    /// The member `key` of an object; `nil` for another value or a missing member.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a string value.
    package var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The value of a number that is a whole number.
    package var integer: Int? {
        guard case .number(let number) = self, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    /// The elements of an array.
    package var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The value as compact JSON text.
    package var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let number):
            number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .string(let text): Self.quoted(text)
        case .array(let elements): "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { Self.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// Reads one JSON value from `bytes`, which hold nothing else but white space.
    ///
    /// - Throws: A `ViewfinderError` (`.malformedData`) naming where the text stops being JSON, or nesting
    ///   deeper than ``maximumDepth``.
    package init(parsing bytes: some Collection<UInt8>) throws {
        var reader = Reader(bytes: Array(bytes))
        self = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("text after the value") }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func error(_ what: String) -> ViewfinderError {
            ViewfinderError(.malformedData, "not JSON at byte \(index): \(what)")
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ word: String) throws {
            let utf8 = Array(word.utf8)
            guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
                throw error("expected \(word)")
            }
            index += utf8.count
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < JSONValue.maximumDepth else { throw error("nested deeper than \(JSONValue.maximumDepth)") }
            skipSpace()
            guard index < bytes.count else { throw error("the text ends before a value") }
            switch bytes[index] {
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                while true {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("an array does not end") }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { throw error("expected , or ]") }
                }
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: JSONValue)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw error("an object does not end") }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { throw error("expected , or }") }
                }
            default:
                return .number(try number())
            }
        }

        mutating func number() throws -> Double {
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            guard index > start, let text = String(validating: bytes[start..<index], as: UTF8.self),
                let number = Double(text), number.isFinite
            else { throw error("expected a value") }
            return number
        }

        mutating func string() throws -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() throws {
                guard let text = String(validating: run, as: UTF8.self) else { throw error("a string is not UTF-8") }
                scalars.append(contentsOf: text.unicodeScalars)
                run = []
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush()
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "u"):
                        guard bytes.count - index >= 4,
                            let text = String(validating: bytes[index..<index + 4], as: UTF8.self),
                            let code = UInt32(text, radix: 16)
                        else { throw error("a bad \\u escape") }
                        index += 4
                        // A surrogate, alone or in a pair, reads as the replacement character.
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                        scalars.append(Unicode.Scalar(escape))
                    default:
                        throw error("a bad escape")
                    }
                case 0..<0x20:
                    throw error("a control character in a string")
                default:
                    run.append(byte)
                }
            }
            throw error("a string does not end")
        }
    }
}
