import FuzzSupport
import ViewfinderPTP
import ViewfinderSystem

/// Fuzzes the Canon EOS dialect of the client: a `PTPCamera` connects to a Canon camera whose answers to GetEvent are
/// the input, and everything the records say becomes typed properties, valid values and files.
///
/// The input is a sequence of GetEvent answers, each a two-byte little-endian length and that many bytes; once it
/// ends, every answer is an empty event list, so the connection's opening polls end. The camera answers the other
/// operations of a connection (OpenSession, GetDeviceInfo with Canon's extension, remote and event mode, property
/// sets, CloseSession) as a camera does and refuses the rest.
///
/// Errors are expected; crashes, hangs, timeouts and errors other than `ViewfinderError`s are bugs.
@main enum CanonEOSFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    static let deviceInfo = PTPDeviceInfo(
        vendorExtensionID: 0x0B,
        operationsSupported: [
            .getDeviceInfo, .openSession, .closeSession, .canonEOSSetRemoteMode, .canonEOSSetEventMode,
            .canonEOSGetEvent, .canonEOSSetDevicePropValueEx, .canonEOSRemoteReleaseOn, .canonEOSRemoteReleaseOff,
            .canonEOSGetViewFinderData,
        ],
        eventsSupported: [], devicePropertiesSupported: [], captureFormats: [], imageFormats: [.exifJPEG],
        manufacturer: "Canon Inc.", model: "Canon EOS Fuzz", deviceVersion: "1", serialNumber: "1")

    static func fuzz(_ input: [UInt8]) {
        let answers = Locked(Array(FuzzCamera.answers(in: input).reversed()))
        FuzzCamera.connectAndLook { operation, _ in
            switch operation {
            case .closeSession: .closing
            case .getDeviceInfo: (try? deviceInfo.encoded()).map(FuzzCamera.Answer.data) ?? .refuse(.generalError)
            case .canonEOSGetEvent: .data(answers.withLock { $0.popLast() } ?? PTPCanonEOSEvent.encode([]))
            case .openSession, .canonEOSSetRemoteMode, .canonEOSSetEventMode, .canonEOSSetDevicePropValueEx,
                .canonEOSRemoteReleaseOn, .canonEOSRemoteReleaseOff:
                .ok
            default: .refuse(.operationNotSupported)
            }
        }
    }
}
