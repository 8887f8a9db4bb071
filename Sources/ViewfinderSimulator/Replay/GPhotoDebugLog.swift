/// What a `gphoto2 --debug` log holds of a camera's side of the conversation: the hexdumps of what crossed the
/// wire, the responses the log states in words, and the DeviceInfo listings gphoto2 prints.
///
/// gphoto2's logs come in several shapes across its versions: `Hexdump of 16 = 0x10 bytes follows:` after a
/// `Writing`/`Reading` line (2.4), `Read    1024 = 0x400 bytes from port: (hexdump of 1024 bytes)` (2.5, with or
/// without timestamps), PTP/IP's `ptpip/generic_read header:` and `data:` dumps, and hexdumps whose heading was lost
/// when the log was copied. Lines carry a timestamp and the function that wrote them, or nothing. Every shape is read;
/// a hexdump that is not whole (fewer bytes than its heading announces, or offsets that skip) is kept but marked,
/// so that nothing is made up from it.
struct GPhotoDebugLog: Sendable {
    /// Which way bytes went.
    enum Direction: Sendable, Hashable {
        /// From the computer to the camera.
        case toCamera
        /// From the camera to the computer.
        case fromCamera
        /// The log does not say.
        case unknown
    }

    /// How the camera was reached, which decides how the dumped bytes are framed.
    enum Framing: String, Sendable, Hashable {
        /// PTP over USB: containers with a 12-byte header.
        case usb
        /// PTP/IP: packets with an 8-byte header.
        case ptpip
    }

    /// One hexdump.
    struct Dump: Sendable, Hashable {
        /// The line of the first dumped byte, counting from 1.
        var line: Int
        /// Which way the bytes went.
        var direction: Direction
        /// The bytes.
        var bytes: [UInt8]
        /// Whether every byte the heading announces is there, in order.
        var isWhole: Bool
    }

    /// What the log says, in order.
    enum Item: Sendable, Hashable {
        /// Bytes that crossed the wire.
        case dump(Dump)
        /// A PTP/IP response the log states in words (`PTPIP_CMD_RESPONSE (result=0x2001, tid=0x00000001)`), as
        /// gphoto2 logs every response it reads without dumping its packet.
        case statedResponse(code: UInt16, transactionID: UInt32, line: Int)
    }

    /// The log's first line when it is a comment (`# https://…`): where the log comes from.
    var source: String?
    /// How the camera was reached.
    var framing: Framing
    /// The hexdumps and stated responses, in order.
    var items: [Item]
    /// What gphoto2's DeviceInfo listings say, merged.
    var listing: DeviceInfoListing
    /// What `gphoto2 --summary` says of the camera's properties and storages.
    var summary: GPhotoSummary

    /// The most bytes one hexdump may hold; a longer one is cut there and marked as not whole.
    static let maximumDumpLength = 64 << 20

    /// Reads a log.
    init(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
        source = lines.first.flatMap { $0.hasPrefix("#") ? String($0.dropFirst().drop { $0 == " " }) : nil }
        framing = lines.contains { $0.contains("ptp_ptpip_") || $0.contains("ptpip/") } ? .ptpip : .usb
        listing = DeviceInfoListing(lines)
        summary = GPhotoSummary(lines)
        items = []
        var context = Direction.unknown
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if let heading = Self.hexdumpHeading(line) {
                let direction = Self.direction(of: line) ?? context
                let (dump, next) = Self.readDump(lines, from: index + 1, announced: heading, direction: direction)
                if let dump { items.append(.dump(dump)) }
                index = next
                continue
            }
            if Self.hexLine(line) != nil, Self.hexLine(line)?.offset == 0 {
                // A hexdump whose heading was lost: the bytes are there, which way they went is not.
                let (dump, next) = Self.readDump(lines, from: index, announced: nil, direction: .unknown)
                if let dump { items.append(.dump(dump)) }
                index = next
                continue
            }
            if let direction = Self.direction(of: line) {
                context = direction
            }
            if let response = Self.statedResponse(line) {
                items.append(.statedResponse(code: response.code, transactionID: response.id, line: index + 1))
            }
            index += 1
        }
    }

    /// The number of bytes a hexdump heading announces (`hexdump of 18 bytes`, `Hexdump of 16 = 0x10 bytes`).
    static func hexdumpHeading(_ line: Substring) -> Int? {
        guard let range = line.firstRange(of: "exdump of "), range.lowerBound > line.startIndex else { return nil }
        let letter = line[line.index(before: range.lowerBound)]
        guard letter == "h" || letter == "H" else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }

    /// Which way the bytes a line speaks of went, when it says.
    static func direction(of line: Substring) -> Direction? {
        for word in ["Wrote ", "Writing ", "oprequest", "senddata", "write "] where line.contains(word) {
            return .toCamera
        }
        for word in ["Read ", "Reading ", "read ", "generic_read", "Could only read"] where line.contains(word) {
            return .fromCamera
        }
        return nil
    }

    /// A response stated in words: `PTPIP_CMD_RESPONSE (result=0x2001, tid=0x00000001)`.
    static func statedResponse(_ line: Substring) -> (code: UInt16, id: UInt32)? {
        guard line.contains("PTPIP_CMD_RESPONSE"), let result = hexNumber(after: "result=0x", in: line),
            let id = hexNumber(after: "tid=0x", in: line), let code = UInt16(exactly: result),
            let transactionID = UInt32(exactly: id)
        else { return nil }
        return (code, transactionID)
    }

    /// The hexadecimal number that follows `marker` in `line`.
    static func hexNumber(after marker: String, in line: Substring) -> UInt64? {
        guard let range = line.firstRange(of: marker) else { return nil }
        return UInt64(line[range.upperBound...].prefix { $0.isHexDigit }.prefix(16), radix: 16)
    }

    /// One line of a hexdump: `0010  00 00 00 00 …-… 00  ................`.
    static func hexLine(_ line: Substring) -> (offset: Int, bytes: [UInt8])? {
        let offsetText = line.prefix { $0.isHexDigit }
        guard offsetText.count >= 4, offsetText.count <= 8, let offset = Int(offsetText, radix: 16) else { return nil }
        var rest = line[offsetText.endIndex...]
        guard rest.hasPrefix("  ") else { return nil }
        rest = rest.dropFirst(2).prefix(48)
        var bytes: [UInt8] = []
        for token in rest.split(whereSeparator: { $0 == " " || $0 == "-" }) {
            guard token.count == 2, let byte = UInt8(token, radix: 16) else { return nil }
            bytes.append(byte)
        }
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        return (offset, bytes)
    }

    /// Reads the hexdump lines from `start` on.
    ///
    /// - Returns: The dump (`nil` when there is no hexdump line), and the index of the first line after it.
    private static func readDump(
        _ lines: [Substring], from start: Int, announced: Int?, direction: Direction
    ) -> (Dump?, Int) {
        var index = start
        var bytes: [UInt8] = []
        var inOrder = true
        var lastLineWasFull = true
        while index < lines.count, let (offset, lineBytes) = hexLine(lines[index]) {
            if offset != bytes.count || !lastLineWasFull { inOrder = false }
            lastLineWasFull = lineBytes.count == 16
            if bytes.count + lineBytes.count > maximumDumpLength {
                inOrder = false
            } else {
                bytes += lineBytes
            }
            index += 1
        }
        guard index > start else { return (nil, index) }
        let whole = inOrder && (announced.map { $0 == bytes.count } ?? true)
        return (Dump(line: start + 1, direction: direction, bytes: bytes, isWhole: whole), index)
    }
}

extension GPhotoDebugLog {
    /// What gphoto2's `Device info:` listings say: the fields of the camera's DeviceInfo in words.
    ///
    /// A log may hold several listings, or pieces of them (gphoto2 prints one before and one after its fixups, and
    /// a copied log may leave lines out): the first value of each field is kept, and the codes of each list are
    /// gathered from every piece, in the order first seen.
    struct DeviceInfoListing: Sendable, Hashable {
        var fields: [String: String] = [:]
        var operations: [UInt16] = []
        var events: [UInt16] = []
        var properties: [UInt16] = []

        /// Whether the log has a listing at all.
        var isEmpty: Bool { fields["Manufacturer"] == nil && fields["Model"] == nil }

        init(_ lines: [Substring]) {
            enum Section { case none, operations, events, properties }
            let headings: [(String, Section)] = [
                ("Device info:", .none), ("Supported operations:", .operations), ("Events Supported:", .events),
                ("Device Properties Supported:", .properties),
            ]
            let keys: Set<Substring> = [
                "Manufacturer", "Model", "device version", "serial number", "Vendor extension ID",
                "Vendor extension version", "Vendor extension description", "Functional Mode", "PTP Standard Version",
            ]
            var section: Section?
            for raw in lines {
                let line = GPhotoDebugLog.message(of: raw).drop { $0 == " " || $0 == "\t" }
                if let heading = headings.first(where: { line.hasPrefix($0.0) }) {
                    section = heading.1
                } else if let current = section, current != .none, let code = Self.listedCode(line) {
                    switch current {
                    case .operations: if !operations.contains(code) { operations.append(code) }
                    case .events: if !events.contains(code) { events.append(code) }
                    case .properties: if !properties.contains(code) { properties.append(code) }
                    case .none: break
                    }
                } else if section != nil, let colon = line.firstIndex(of: ":"), keys.contains(line[..<colon]) {
                    let key = String(line[..<colon])
                    if fields[key] == nil {
                        fields[key] = String(line[line.index(after: colon)...].drop { $0 == " " })
                    }
                    section = Section.none
                } else if !line.hasPrefix("###") {
                    // Anything else ends the listing; a gap marked in a copied log does not.
                    section = nil
                }
            }
        }

        /// The code a listing line starts with: `0x9059 (Unknown PTP_OC)` or `0xc181`.
        private static func listedCode(_ line: Substring) -> UInt16? {
            guard line.hasPrefix("0x") else { return nil }
            let digits = line.dropFirst(2).prefix { $0.isHexDigit }
            guard digits.count == 4, line.dropFirst(2 + 4).first.map({ $0 == " " }) ?? true else { return nil }
            return UInt16(digits, radix: 16)
        }
    }

    /// A log line without the timestamp and the name of the function that wrote it:
    /// `0.868433 PTP2/ptp2/library.c(2): Manufacturer: Canon Inc.` gives `Manufacturer: Canon Inc.`.
    static func message(of line: Substring) -> Substring {
        let stamp = line.prefix { $0.isNumber || $0 == "." }
        guard !stamp.isEmpty, stamp.contains("."), line[stamp.endIndex...].hasPrefix(" ") else { return line }
        var index = stamp.endIndex
        while let open = line[index...].firstIndex(of: "(") {
            let inside = line[line.index(after: open)...].prefix { $0.isNumber }
            let close = inside.endIndex
            if !inside.isEmpty, line[close...].hasPrefix("):") {
                let after = line.index(close, offsetBy: 2)
                return line[after...].hasPrefix(" ") ? line[line.index(after: after)...] : line[after...]
            }
            index = line.index(after: open)
        }
        return line
    }
}
