/// The head of an HTTP/1.1 message: its start line and its header fields, as HTTP over TCP and SSDP over UDP write
/// them.
///
/// The one reader and writer of heads: the tool's servers read requests with it, UPnP discovery its SSDP datagrams,
/// the description fetch its answers and the announcer its requests, and the rig its file answers. Each applies its
/// own rules to the fields (SSDP keeps the first of a repeated field, the servers refuse a second `Host`), and
/// bounds what it reads; the head itself takes at most the fields it is told to.
///
/// ```swift
/// let head = try HTTPHead(parsing: Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n".utf8))
/// head.startWords  // ["HTTP/1.1", "200", "OK"]
/// head["content-length"]  // "5"
/// ```
package struct HTTPHead: Hashable, Sendable {
    /// A header field: its name as the message wrote it, and its value without the spaces and tabs around it.
    package struct Field: Hashable, Sendable {
        /// The name, in the case the message wrote it.
        package var name: String
        /// The value.
        package var value: String

        /// A field.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Why a head could not be read.
    package enum Failure: Error, Hashable {
        /// The head has more fields than the reader takes.
        case tooManyFields
        /// A field line has no colon, or nothing before it; the line is given.
        case fieldWithoutName(String)
    }

    /// The start line: a request line such as `GET / HTTP/1.1`, or a status line such as `HTTP/1.1 200 OK`.
    package var startLine: String
    /// The header fields, in order.
    package var fields: [Field]

    /// A head.
    package init(startLine: String, fields: [Field] = []) {
        self.startLine = startLine
        self.fields = fields
    }

    /// Reads a head: empty lines, then the start line, then field lines up to an empty line or the end.
    ///
    /// Lines end in CRLF, or in LF alone from lax senders; bytes that are not UTF-8 are read as U+FFFD.
    ///
    /// - Throws: ``Failure/tooManyFields`` past `maximumFieldCount` fields; ``Failure/fieldWithoutName(_:)`` for a
    ///   field line without a name and a colon.
    package init(parsing bytes: some Collection<UInt8>, maximumFieldCount: Int = 64) throws(Failure) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }[...]
        while lines.first?.isEmpty == true { lines.removeFirst() }
        startLine = lines.popFirst() ?? ""
        fields = []
        for line in lines {
            if line.isEmpty { break }
            guard fields.count < maximumFieldCount else { throw .tooManyFields }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .fieldWithoutName(line)
            }
            fields.append(Field(String(line[..<colon]), Self.trimmed(line[line.index(after: colon)...])))
        }
    }

    /// The start line's words, such as `GET`, `/` and `HTTP/1.1`, or `HTTP/1.1`, `200` and `OK`.
    package var startWords: [Substring] {
        startLine.split(separator: " ")
    }

    /// The value of the first field named `name`, whatever the case of either.
    package subscript(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// The head's bytes: the start line, each field as `name: value`, and the empty line, each ending in CRLF.
    package func encoded() -> [UInt8] {
        Array((([startLine] + fields.map { "\($0.name): \($0.value)" }).map { $0 + "\r\n" }.joined() + "\r\n").utf8)
    }

    /// Where a head ends in `bytes` (just past its empty line), looking from `start`; `nil` while it does not.
    package static func end(in bytes: [UInt8], from start: Int = 0) -> Int? {
        var index = max(start, 0)
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    /// `text` without the spaces and tabs at either end.
    static func trimmed(_ text: Substring) -> String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }
}
