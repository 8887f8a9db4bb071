import FuzzSupport
import ViewfinderCore
import ViewfinderSonyRemote

/// Fuzzes what a Sony Camera Remote API body sends: a selector byte, then its live view stream cut in pieces, each
/// after a one-byte length (0); a call's answer, every value in it mapped as a setting would (1); or a device
/// description (2).
///
/// Besides crashes and hangs, it checks what must hold: readers fail only with `malformedData` (an answer's error
/// array with the code it maps to); a frame the live view reader returns is no longer than its bound; every value a
/// setting maps to is shown with some text and an unknown one is never offered.
@main enum SonyRemoteFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    /// Reads `input` as its first byte selects, checking what must hold.
    static func fuzz(_ input: [UInt8]) {
        let bytes = Array(input.dropFirst())
        do throws(ViewfinderError) {
            switch input.first.map({ $0 % 3 }) {
            case nil:
                return
            case 0?:
                stream(bytes)
            case 1?:
                let result = try SonyRemoteCall.result(of: bytes, method: "getEvent", peer: "the fuzzer")
                for text in strings(in: .array(result)).prefix(500) {
                    check(SonyRemotePropertyValues.iso(text))
                    check(SonyRemotePropertyValues.aperture(text))
                    check(SonyRemotePropertyValues.shutterSpeed(text))
                    check(SonyRemotePropertyValues.whiteBalance(text))
                }
                for case .number(let number) in result.prefix(100) where abs(number) < 1e6 {
                    check(
                        SonyRemotePropertyValues.exposureCompensation(Int(number), stepIndex: Int(number) % 3))
                }
            default:
                let description = try SonyRemoteDescription(parsing: bytes, from: "the fuzzer")
                _ = description.serviceURL("camera")
            }
        } catch {
            let codes: [ViewfinderError.Code] = [
                .malformedData, .notAvailable, .timeout, .invalidPropertyValue, .invalidArgument,
                .deviceBusy,
                .protocolFailure,
            ]
            precondition(codes.contains(error.code), "a reader failed with \(error)")
        }
    }

    /// The stream cut from `bytes` by the length byte before each piece, fed to a reader of frames up to 4 KiB.
    static func stream(_ bytes: [UInt8]) {
        var reader = SonyRemoteLiveViewReader(maximumFrameLength: 4096)
        var rest = bytes[...]
        while let length = rest.first {
            let piece = rest.dropFirst().prefix(Int(length))
            rest = rest.dropFirst(1 + Int(length))
            do throws(ViewfinderError) {
                guard let frame = try reader.take(piece) else { continue }
                precondition(
                    frame.jpeg.count <= 4096, "a frame of \(frame.jpeg.count) bytes passed its bound")
            } catch {
                precondition(error.code == .malformedData, "the reader failed with \(error)")
                return
            }
        }
    }

    /// The strings in `value`, however deep.
    static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .array(let elements): elements.flatMap { strings(in: $0) }
        case .object(let members): members.flatMap { strings(in: $0.value) }
        default: []
        }
    }

    static func check<Value>(_ value: TypedCameraPropertyValue<Value>) {
        precondition(!value.localizedDisplayValue.isEmpty || value.rawValue == .string(""))
        precondition(!CameraPropertySettableValues([value]).contains { $0.isUnknown })
    }
}
