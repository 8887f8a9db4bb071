import ViewfinderCore
import ViewfinderPTP

/// What `gphoto2 --summary` prints of a camera's properties and storages, read back into the datasets the camera sent.
///
/// Most logs in libgphoto2's `camlibs/ptp2/cameras/` are summaries rather than hexdumps. Their "Device Property
/// Summary" gives each property as GetDevicePropDesc described it — its data type, whether it can be set, its form
/// (a range or an enumeration) and its current value — and their "Storage Devices Summary" each storage's StorageInfo.
/// The reader turns them into the answers to GetDevicePropDesc, GetStorageIDs and GetStorageInfo. What a summary does
/// not show is not made up beyond what the dataset needs: the factory default (not printed) is the current value,
/// and a property whose line does not read whole is left out.
struct GPhotoSummary: Sendable {
    /// Each property's description, in the order listed.
    var properties: [PTPDevicePropertyDescription] = []
    /// Each storage's ID and information, in the order listed.
    var storages: [(id: UInt32, info: PTPStorageInfo)] = []

    init(_ lines: [Substring]) {
        var section: Section?
        var entry: String?
        var storage: (id: UInt32, fields: [String: String])?
        func finishStorage() {
            if let (id, fields) = storage, let info = Self.storageInfo(fields) { storages.append((id, info)) }
            storage = nil
        }
        for raw in lines {
            let line = GPhotoDebugLog.message(of: raw)
            if line.hasPrefix("Device Property Summary:") {
                finishStorage()
                section = .properties
                continue
            }
            if line.hasPrefix("Storage Devices Summary:") {
                section = .storages
                continue
            }
            switch section {
            case .properties:
                if var pending = entry {
                    // An enumeration of strings spans lines: `Enumeration [`, `\t'a',`, …, `\t] value: 'a'`.
                    pending += String(line.drop { $0 == "\t" || $0 == " " })
                    if line.drop(while: { $0 == "\t" || $0 == " " }).hasPrefix("]") {
                        properties += Self.property(pending).map { [$0] } ?? []
                        entry = nil
                    } else {
                        entry = pending
                    }
                } else if line.contains(":(read") {
                    if line.hasSuffix("Enumeration [") {
                        entry = String(line)
                    } else {
                        properties += Self.property(String(line)).map { [$0] } ?? []
                    }
                } else if !line.isEmpty {
                    section = nil
                }
            case .storages:
                if line.hasPrefix("store_"), line.hasSuffix(":"),
                    let id = UInt32(line.dropFirst(6).dropLast(), radix: 16)
                {
                    finishStorage()
                    storage = (id, [:])
                } else if raw.hasPrefix("\t"), let colon = line.firstIndex(of: ":"), storage != nil {
                    let key = String(line[..<colon].drop { $0 == "\t" || $0 == " " })
                    storage?.fields[key] = String(line[line.index(after: colon)...].drop { $0 == " " })
                } else if !line.isEmpty {
                    finishStorage()
                    section = nil
                }
            case nil:
                break
            }
        }
        finishStorage()
    }

    private enum Section { case properties, storages }

    /// The answers the summary gives, as recorded transactions.
    var transactions: [RecordedTransaction] {
        var transactions: [RecordedTransaction] = []
        for property in properties {
            guard let bytes = try? property.encoded() else { continue }
            transactions.append(
                RecordedTransaction(
                    operation: .getDevicePropDesc, parameters: [UInt32(property.code.rawValue)], dataIn: bytes,
                    response: .ok, line: 0))
        }
        if !storages.isEmpty {
            var writer = PTPDataWriter()
            writer.append(array: storages.map(\.id))
            transactions.append(
                RecordedTransaction(
                    operation: .getStorageIDs, parameters: [], dataIn: writer.bytes, response: .ok, line: 0))
            for (id, info) in storages {
                guard let bytes = try? info.encoded() else { continue }
                transactions.append(
                    RecordedTransaction(
                        operation: .getStorageInfo, parameters: [id], dataIn: bytes, response: .ok, line: 0))
            }
        }
        return transactions
    }

    /// A property line: `ISO Speed(0x500f):(readwrite) (type=0x4) Enumeration [100,200] value: ISO 100 (100)`, or
    /// `Property 0xd406:(readwrite) (type=0xffff) 'text'` for one gphoto2 has no name for.
    static func property(_ text: String) -> PTPDevicePropertyDescription? {
        guard let accessRange = text.firstRange(of: ":(read") else { return nil }
        let head = text[..<accessRange.lowerBound]
        guard let open = head.lastRange(of: "(0x") ?? head.firstRange(of: "Property 0x"),
            let code = UInt16(head[open.upperBound...].prefix { $0.isHexDigit }, radix: 16)
        else { return nil }
        var rest = text[text.index(accessRange.lowerBound, offsetBy: 2)...]
        let isSettable = rest.hasPrefix("readwrite")
        guard isSettable || rest.hasPrefix("read only"),
            let typeRange = rest.firstRange(of: "(type=0x"),
            let rawType = UInt16(rest[typeRange.upperBound...].prefix { $0.isHexDigit }, radix: 16)
        else { return nil }
        let type = PTPDataType(rawValue: rawType)
        guard type == .string || (0x0001...0x0008).contains(rawType) else { return nil }
        rest = rest[typeRange.upperBound...].drop { $0 != ")" }.dropFirst().drop { $0 == " " }
        var form = PTPDevicePropertyDescription.Form.none
        if rest.hasPrefix("Range [") {
            let inside = rest.dropFirst(7).prefix { $0 != "]" }
            let numbers = inside.split(whereSeparator: { $0 == " " || $0 == "," }).filter { $0 != "-" && $0 != "step" }
            guard numbers.count == 3, let minimum = value(numbers[0], type), let maximum = value(numbers[1], type),
                let step = value(numbers[2], type)
            else { return nil }
            form = .range(minimum: minimum, maximum: maximum, step: step)
            rest = rest.drop { $0 != "]" }.dropFirst()
        } else if rest.hasPrefix("Enumeration [") {
            let inside = rest.dropFirst(13).prefix { $0 != "]" }
            var values: [PTPValue] = []
            for item in inside.split(separator: ",") {
                guard let parsed = value(item.trimmingSpaces, type) else { return nil }
                values.append(parsed)
            }
            form = .enumeration(values)
            rest = rest.drop { $0 != "]" }.dropFirst()
        }
        rest = rest.drop { $0 == " " }
        if rest.hasPrefix("value:") { rest = rest.dropFirst(6).drop { $0 == " " } }
        guard let current = currentValue(rest, type) else { return nil }
        return PTPDevicePropertyDescription(
            code: PTPDevicePropertyCode(rawValue: code), dataType: type, isSettable: isSettable,
            factoryDefaultValue: current, currentValue: current, form: form)
    }

    /// The current value as gphoto2 prints it: `ISO 100 (100)`, `612`, `100% (100)`, `'6048x4024'`.
    private static func currentValue(_ text: Substring, _ type: PTPDataType) -> PTPValue? {
        let text = text.trimmingSpaces
        if type == .string { return value(text, type) }
        if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
            return value(text[text.index(after: open)..<text.index(before: text.endIndex)], type)
        }
        return value(text.prefix { $0 != " " }, type)
    }

    /// One value of `type` as gphoto2 prints it: a number, or a string in single quotes.
    private static func value(_ text: Substring, _ type: PTPDataType) -> PTPValue? {
        if type == .string {
            guard text.count >= 2, text.first == "'", text.last == "'" else { return nil }
            return .string(String(text.dropFirst().dropLast()))
        }
        guard let number = Int64(text) else { return nil }
        return PTPValue(integer: number, as: type)
    }

    /// A storage's information from its summary fields, as gphoto2 names them; `nil` without its capacity.
    private static func storageInfo(_ fields: [String: String]) -> PTPStorageInfo? {
        func number(_ key: String) -> Int64? { fields[key].flatMap { Int64($0.prefix { $0 != " " }) } }
        guard let capacity = number("Maximum Capability"), let free = number("Free Space (Bytes)") else { return nil }
        let types = ["Fixed ROM": 1, "Removable ROM": 2, "Fixed RAM": 3, "Removable RAM (memory card)": 4]
        let filesystems = ["Generic Flat": 1, "Generic Hierarchical": 2, "Digital Camera Layout (DCIM)": 3]
        let access = ["Read-Write": 0, "Read-Only": 1, "Read Only with Object deletion": 2]
        let description = fields["StorageDescription"].map { $0 == "None" ? "" : $0 } ?? ""
        return PTPStorageInfo(
            storageType: UInt16(types[fields["Storage Type"] ?? ""] ?? 0),
            filesystemType: UInt16(filesystems[fields["Filesystemtype"] ?? ""] ?? 0),
            accessCapability: UInt16(access[fields["Access Capability"] ?? ""] ?? 0),
            maximumCapacity: UInt64(clamping: capacity), freeSpaceInBytes: UInt64(clamping: free),
            freeSpaceInImages: UInt32(truncatingIfNeeded: number("Free Space (Images)") ?? -1),
            storageDescription: description, volumeLabel: fields["VolumeLabel"] ?? "")
    }
}

extension Substring {
    /// The text without spaces at either end.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }

    /// Where `marker` last occurs.
    fileprivate func lastRange(of marker: String) -> Range<Index>? {
        var found: Range<Index>?
        var rest = self[...]
        while let range = rest.firstRange(of: marker) {
            found = range
            rest = rest[range.upperBound...]
        }
        return found
    }
}
