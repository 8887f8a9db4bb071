import FuzzSupport
import ViewfinderCore
import ViewfinderOlympus

/// Fuzzes what an Olympus sends: a selector byte, then live view packets, each after a one-byte length (0); a command
/// list (1); property descriptions, every value mapped as its property would (2); or a folder listing (3).
///
/// Besides crashes and hangs, it checks what must hold: readers fail only with `malformedData`; a frame the RTP
/// assembler returns starts and ends with the JPEG markers, is no longer than its bound and carries an EXIF
/// orientation or none; every value a property maps to is shown with some text and an unknown one is never offered.
@main enum OlympusFuzzer {
    static func main() {
        FuzzReaders.run([packets, commandList, descriptions, folder])
    }

    /// A command list, asked what a driver asks of it.
    static func commandList(_ bytes: [UInt8]) throws {
        let list = try OlympusCommandList(parsing: bytes)
        for (name, _) in list.commands.prefix(50) {
            _ = list.accepts(name, [("mode", "rec")])
            _ = list.values(of: "lvqty", in: name, after: [("mode", "rec")])
        }
    }

    /// Property descriptions, every value mapped as each property would.
    static func descriptions(_ bytes: [UInt8]) throws {
        for description in try OlympusPropertyDescription.list(parsing: bytes).prefix(100) {
            for text in ([description.value] + description.values).prefix(200) {
                FuzzReaders.check(
                    text,
                    mappedBy: OlympusPropertyValues.exposureMode, OlympusPropertyValues.iso,
                    OlympusPropertyValues.aperture, OlympusPropertyValues.shutterSpeed,
                    OlympusPropertyValues.exposureCompensation, OlympusPropertyValues.whiteBalance,
                    OlympusPropertyValues.driveMode, OlympusPropertyValues.focusMode)
            }
        }
    }

    /// A folder listing.
    static func folder(_ bytes: [UInt8]) throws {
        for entry in try OlympusFolderEntry.list(parsing: bytes) {
            precondition(entry.size >= 0)
        }
    }

    /// Packets cut from `bytes` by the length byte before each, fed to an assembler of frames up to 4 KiB.
    static func packets(_ bytes: [UInt8]) {
        var assembler = OlympusRTPAssembler(maximumFrameLength: 4096)
        var rest = bytes[...]
        while let length = rest.first {
            let packet = rest.dropFirst().prefix(Int(length))
            rest = rest.dropFirst(1 + Int(length))
            do throws(ViewfinderError) {
                guard let frame = try assembler.take(packet) else { continue }
                precondition(frame.jpeg.prefix(2) == [0xFF, 0xD8] && frame.jpeg.suffix(2) == [0xFF, 0xD9])
                precondition(frame.jpeg.count <= 4096, "a frame of \(frame.jpeg.count) bytes passed its bound")
                precondition(frame.orientation.map { [1, 3, 6, 8].contains($0) } ?? true)
            } catch {
                precondition(error.code == .malformedData, "the assembler failed with \(error)")
            }
        }
    }
}
