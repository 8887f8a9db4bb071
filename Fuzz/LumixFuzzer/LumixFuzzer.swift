import FuzzSupport
import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderHTTPMessage
import ViewfinderLumix

/// Fuzzes what a Lumix sends: a selector byte, then a `cam.cgi` answer read as every command's answer is (0), a
/// menu list and a current menu after a two-byte length (1), a live view datagram (2), or an HTTP answer's head and
/// body, the body taken in pieces of the sizes the next byte says (3).
///
/// Besides crashes and hangs, it checks what must hold: readers fail only with `malformedData`; every value a
/// setting maps to is shown with some text and an unknown one is never offered; a menu's allowed values are among its
/// choices; a JPEG taken from a datagram starts and ends with its markers and lies within it; a body read is never
/// longer than its bound.
@main enum LumixFuzzer {
    static func main() {
        FuzzReaders.run([{ reply(try LumixReply($0, command: "mode=getstate")) }, menus, datagram, body])
    }

    /// A menu list and a current menu after a two-byte length: every menu's allowed values are among its choices.
    static func menus(_ bytes: [UInt8]) throws {
        let split = bytes.count >= 2 ? min(Int(bytes[0]) | Int(bytes[1]) << 8, bytes.count - 2) : 0
        let all = try XMLElements(Array(bytes.dropFirst(2).prefix(split)), from: "a menu list")
        let current = try XMLElements(Array(bytes.dropFirst(2 + split)), from: "a current menu")
        let menus = LumixMenus(allMenu: all)
        let now = LumixMenus.Current(current)
        for (type, setting) in menus.settings {
            let allowed = menus.allowedValues(of: type, now: now)
            precondition(allowed.allSatisfy { value in setting.choices.contains { $0.value == value } })
            _ = menus.currentValue(of: type, in: now)
        }
    }

    /// A live view datagram: a JPEG taken from it starts and ends with its markers and lies within it.
    static func datagram(_ bytes: [UInt8]) throws {
        let jpeg = try LumixLiveViewDatagram.jpeg(in: bytes[...])
        precondition(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.suffix(2) == [0xFF, 0xD9])
        precondition(jpeg.startIndex >= 0 && jpeg.endIndex == bytes.count)
    }

    /// Reads an answer as the driver does, and maps every text in it as each setting would.
    static func reply(_ reply: LumixReply) {
        _ = reply.result
        _ = reply.fields
        var texts = Array(reply.childTexts(of: "state").values)
        for type in ["iso", "focal", "shtrspeed", "focusmode"] {
            texts += reply.settingValue(type).map { [$0] } ?? []
        }
        texts += reply.document?.elements.flatMap { [$0.text] + $0.attributes.map(\.value) } ?? []
        for text in texts.prefix(200) {
            FuzzReaders.check(
                text,
                mappedBy: LumixPropertyValues.iso, LumixPropertyValues.aperture, LumixPropertyValues.shutterSpeed,
                LumixPropertyValues.exposureCompensation, LumixPropertyValues.whiteBalance,
                LumixPropertyValues.focusMode, LumixPropertyValues.driveMode)
            LumixPropertyValues.batteryLevel(text).map(FuzzReaders.check)
        }
    }

    /// An HTTP answer's body read in pieces, within a bound of 4 KiB.
    static func body(_ bytes: [UInt8]) {
        guard let end = HTTPHead.end(in: bytes), let head = try? HTTPHead(parsing: bytes[..<end]),
            var reader = try? HTTPBodyReader(head: head, maximumLength: 4096)
        else { return }
        var rest = bytes[end...]
        while !rest.isEmpty {
            let size = Int(rest.first!) + 1
            guard (try? reader.take(rest.prefix(size))) != nil else { return }
            rest = rest.dropFirst(size)
        }
        _ = try? reader.finishAtClose()
        precondition(reader.body.count <= 4096, "a body of \(reader.body.count) bytes passed its bound")
    }
}
