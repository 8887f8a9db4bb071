import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// Fuzzes the Sony dialect of the client: a `PTPCamera` connects to a Sony camera whose answers to
/// GetAllExtDevicePropInfo (and, when the input says, GetExtDeviceInfo) are the input, and every record becomes typed
/// properties and valid values.
///
/// The input's first byte chooses the camera: bit 0 set, protocol 300 (values set directly), else 200 (by notches);
/// bit 1 set, its GetExtDeviceInfo answer is the first of the input's answers, else one the fuzzer makes for the
/// protocol. The rest is a sequence of answers, each a two-byte little-endian length and that many bytes; once they
/// end, GetAllExtDevicePropInfo answers an empty list. The camera answers the rest of a connection (OpenSession,
/// GetDeviceInfo with Sony's extension, the SDIO handshake, property sets and controls, CloseSession) as a camera
/// does and refuses what else comes.
///
/// What must hold: every answer that decodes encodes again and decodes to the same records, and the same bytes hold
/// no live view frame or one inside them; a connection fails only with a `ViewfinderError`, never a timeout; every
/// value offered as settable has a name. Errors are expected; crashes, hangs and leaks are bugs.
@main enum SonyFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    static let deviceInfo = PTPDeviceInfo(
        vendorExtensionID: 0x11,
        operationsSupported: [
            .getDeviceInfo, .openSession, .closeSession, .sonySDIOConnect, .sonyGetExtDeviceInfo,
            .sonySetExtDevicePropValue, .sonyControlDevice, .sonyGetAllExtDevicePropInfo,
        ],
        eventsSupported: [], devicePropertiesSupported: [], captureFormats: [], imageFormats: [.exifJPEG],
        manufacturer: "Sony Corporation", model: "ILCE-FUZZ", deviceVersion: "1.00", serialNumber: "1")

    static func fuzz(_ input: [UInt8]) {
        guard let flags = input.first else { return }
        var answers = FuzzCamera.answers(in: input.dropFirst())
        for answer in answers {
            check(answer)
        }
        let extended: [UInt8]
        if flags & 2 != 0, !answers.isEmpty {
            extended = answers.removeFirst()
        } else {
            extended = PTPSonyExtendedDeviceInfo(
                version: flags & 1 != 0 ? 300 : 200, properties: [0x5007, 0x5010, 0xD20D, 0xD21E, 0xD25A],
                controls: [0xD2C1, 0xD2C2, 0xD2C8]
            ).encoded()
        }
        let queue = Locked(Array(answers.reversed()))
        FuzzCamera.connectAndLook { operation, _ in
            switch operation {
            case .closeSession: .closing
            case .getDeviceInfo: (try? deviceInfo.encoded()).map(FuzzCamera.Answer.data) ?? .refuse(.generalError)
            case .sonySDIOConnect: .data([UInt8](repeating: 0, count: 8))
            case .sonyGetExtDeviceInfo: .data(extended)
            case .sonyGetAllExtDevicePropInfo: .data(queue.withLock { $0.popLast() } ?? [0, 0, 0, 0, 0, 0, 0, 0])
            case .openSession, .sonySetExtDevicePropValue, .sonyControlDevice: .ok
            default: .refuse(.operationNotSupported)
            }
        }
    }

    /// Checks what must hold of one answer's bytes, whatever they are.
    static func check(_ answer: [UInt8]) {
        do {
            let records = try PTPSonyProperty.decodeAll(answer)
            let again = try PTPSonyProperty.decodeAll(try PTPSonyProperty.encodeAll(records))
            precondition(again == records, "records changed on the way back: \(records) became \(again)")
        } catch {
            precondition(error.code == .malformedData, "decoding failed with \(error.code): \(error.message)")
        }
        if let range = try? PTPSonyLiveViewFrame.jpegRange(in: answer) {
            precondition(range.lowerBound >= 0 && range.upperBound <= answer.count, "a frame outside the data")
        }
        if let info = try? PTPSonyExtendedDeviceInfo(decoding: answer) {
            precondition(
                (try? PTPSonyExtendedDeviceInfo(decoding: info.encoded())) == info, "extended info changed")
        }
    }
}
