import Dispatch
import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

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

    static let transportConfiguration = PTPIPTransport.Configuration(
        clientName: "fuzz", clientGUID: .random(), responseTimeout: .seconds(2), eventProbeInterval: nil)

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
        guard let (near, far) = try? Socket.pair(), let (events, eventsPeer) = try? Socket.pair() else { return }
        let transport = PTPIPTransport(
            command: PTPIPConnection(
                socket: near, timeout: transportConfiguration.responseTimeout,
                maximumControlPacketLength: transportConfiguration.maximumControlPacketLength),
            events: PTPIPConnection(socket: events, timeout: transportConfiguration.responseTimeout),
            configuration: transportConfiguration)
        let camera = FuzzCamera(answers: answers(in: input), socket: far)
        guard let responder = try? PlatformThread(name: "fuzz-camera", camera.serve) else { return }
        weak var released: PTPCamera?
        do {
            let client = PTPCamera(endpoint: HarnessEndpoint(transport: transport))
            released = client
            let done = DispatchSemaphore(value: 0)
            Task {
                await connectAndLook(client)
                done.signal()
            }
            done.wait()
        }
        // The task lets go of the camera just after it signals: each input ends with the camera and its dialect gone,
        // so that leak checks see only what an input left behind.
        let deadline = ContinuousClock.now + .seconds(5)
        while released != nil, ContinuousClock.now < deadline { usleep(100) }
        precondition(released == nil, "the camera outlived its connection by five seconds")
        responder.join()
        eventsPeer.close()
    }

    /// The GetEvent answers the input holds.
    static func answers(in input: [UInt8]) -> [[UInt8]] {
        var answers: [[UInt8]] = []
        var offset = 0
        while offset + 2 <= input.count {
            let length = Int(input[offset]) | Int(input[offset + 1]) << 8
            offset += 2
            let end = min(offset + length, input.count)
            answers.append(Array(input[offset..<end]))
            offset = end
        }
        return answers
    }

    /// Connects, reads every property the dialect maps, and disconnects.
    static func connectAndLook(_ camera: PTPCamera) async {
        do {
            try await camera.connect()
        } catch let error as ViewfinderError {
            precondition(error.code != .timeout, "a finite input timed out: \(error.message)")
            return
        } catch {
            preconditionFailure("connect threw something other than a ViewfinderError: \(error)")
        }
        look(camera.property(for: .iso))
        look(camera.property(for: .aperture))
        look(camera.property(for: .shutterSpeed))
        look(camera.property(for: .exposureCompensation))
        look(camera.property(for: .autoExposureMode))
        look(camera.property(for: .whiteBalance))
        look(camera.property(for: .driveMode))
        look(camera.property(for: .focusMode))
        look(camera.property(for: .batteryLevel))
        look(camera.property(for: .shotsAvailable))
        _ = camera.supportedFunctionality
        try? await camera.disconnect()
    }

    /// Reads a property's value and valid values as an app shows them; every value the camera offers has a name.
    static func look<Value>(_ property: TypedCameraProperty<Value>) {
        _ = property.currentValue?.localizedDisplayValue
        _ = property.commonValue
        for value in property.validSettableValues {
            precondition(!value.localizedDisplayValue.isEmpty, "a valid value of \(property) has no name")
        }
    }
}

/// An endpoint whose transport is already open: the fuzzer's side of a socket pair.
struct HarnessEndpoint: PTPEndpoint {
    let transport: PTPIPTransport

    var description: String { "the fuzz camera" }

    func openTransport() async throws -> any PTPTransport { transport }
}
