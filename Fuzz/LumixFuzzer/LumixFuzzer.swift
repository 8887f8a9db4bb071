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
        FuzzEntry.run(fuzz)
    }

    /// Reads `input` as its first byte selects, checking what must hold.
    static func fuzz(_ input: [UInt8]) {
        let bytes = Array(input.dropFirst())
        do throws(ViewfinderError) {
            switch input.first.map({ $0 % 4 }) {
            case nil:
                return
            case 0?:
                reply(try LumixReply(bytes, command: "mode=getstate"))
            case 1?:
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
            case 2?:
                let jpeg = try LumixLiveViewDatagram.jpeg(in: bytes[...])
                precondition(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.suffix(2) == [0xFF, 0xD9])
                precondition(jpeg.startIndex >= 0 && jpeg.endIndex == bytes.count)
            default:
                body(bytes)
            }
        } catch {
            precondition(error.code == .malformedData, "a reader failed with \(error)")
        }
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
            check(LumixPropertyValues.iso(text))
            check(LumixPropertyValues.aperture(text))
            check(LumixPropertyValues.shutterSpeed(text))
            check(LumixPropertyValues.exposureCompensation(text))
            check(LumixPropertyValues.whiteBalance(text))
            check(LumixPropertyValues.focusMode(text))
            check(LumixPropertyValues.driveMode(text))
            LumixPropertyValues.batteryLevel(text).map(check)
        }
    }

    static func check<Value>(_ value: TypedCameraPropertyValue<Value>) {
        precondition(!value.localizedDisplayValue.isEmpty || value.rawValue == .string(""))
        precondition(!CameraPropertySettableValues([value]).contains { $0.isUnknown })
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
