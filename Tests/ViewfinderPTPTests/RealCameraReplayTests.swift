import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderTestSupport

@testable import ViewfinderPTP

/// Real cameras' gphoto2 debug logs (in `Traces/`, each with its source) played back over PTP/IP: the client connects
/// to each, picks the dialect its maker needs, shows the values the log shows, and never shows a code outside its
/// tables as a meaning, nor offers it as settable.
extension SimulatedCameraTests {
    @Suite struct RealCameraReplayTests {
        /// What each trace's camera says it is.
        @Test(
            arguments: [
                ("canon-eos60d-libgphoto2-cameras.log", "Canon EOS 60D", "usb", false),
                ("canon-eos5dmark3-libgphoto2-cameras.log", "Canon EOS 5D Mark III", "usb", true),
                ("canon-eos-m50-libgphoto2-cameras.log", "Canon EOS M50", "usb", true),
                ("canon-powershot-g5x-libgphoto2-cameras.log", "Canon PowerShot G5 X", "usb", false),
                ("nikon-z8-ptpip-libgphoto2-1135.log", "Z 8", "ptpip", true),
                ("nikon-z6-libgphoto2-cameras.log", "Z 6", "usb", true),
                ("nikon-d780-libgphoto2-cameras.log", "D780", "usb", true),
                ("samsung-nx01-libgphoto2-cameras.log", "SAMSUNG NX1", "usb", false),
                ("sony-a7sm3-libgphoto2-cameras.log", "ILCE-7SM3", "usb", true),
            ])
        func everyTraceIsRead(_ trace: String, _ model: String, _ transport: String, _ fromListing: Bool) throws {
            let recording = try ReplayHarness.recording(trace)
            #expect(recording.deviceInfo.model == model)
            #expect(recording.transport == transport)
            #expect(recording.deviceInfoIsFromListing == fromListing)
            #expect(recording.source?.hasPrefix("https://github.com/gphoto/libgphoto2") == true)
            #expect(!recording.deviceInfo.operationsSupported.isEmpty)
        }

        @Test func aCanonDSLRShowsItsSettingsAndOffersOnlyKnownValues() async throws {
            try await ReplayHarness.run("canon-eos60d-libgphoto2-cameras.log") { replay in
                #expect(replay.camera.deviceInfo?.manufacturer == "Canon Inc.")
                #expect(replay.camera.supportedFunctionality.isSuperset(of: [.stillCapture, .propertyControl]))
                #expect(replay.shown(.iso) == "ISO 1600")
                #expect(replay.shown(.aperture) == "f/4")
                #expect(replay.shown(.batteryLevel) == "50%")
                #expect(replay.camera.property(for: .shotsAvailable).commonValue == ShotsAvailableValue(3938))
                #expect(replay.camera.property(for: .iso).validSettableValues.count == 20)
                expectNothingUnknownIsSettable(replay.camera)
                #expect(replay.simulator.replayCounts.answered[.canonEOSGetEvent, default: 0] > 0)
            }
        }

        @Test func aCanonInSceneAutoShowsAnAutomaticApertureNotF1448() async throws {
            try await ReplayHarness.run("canon-eos-m50-libgphoto2-cameras.log") { replay in
                #expect(replay.camera.property(for: .aperture).commonValue == .automatic)
                #expect(replay.shown(.autoExposureMode) == "Scene Intelligent Auto")
                #expect(replay.shown(.shutterSpeed) == "1\"")
                #expect(replay.camera.property(for: .shotsAvailable).commonValue == ShotsAvailableValue(1284))
                // The log does not show remote mode, so the replay refuses it: the camera connects without
                // offering to shoot, with its properties all there.
                #expect(!replay.camera.supportedFunctionality.contains(.stillCapture))
                #expect(replay.simulator.replayCounts.refused[.canonEOSSetRemoteMode] == 1)
                expectNothingUnknownIsSettable(replay.camera)
            }
        }

        @Test func aCanonDSLRWhoseLogStartsMidSessionShowsItsSettings() async throws {
            try await ReplayHarness.run("canon-eos5dmark3-libgphoto2-cameras.log") { replay in
                #expect(replay.camera.property(for: .iso).commonValue == .automatic)
                #expect(replay.shown(.shutterSpeed) == "1/200")
                #expect(replay.shown(.aperture) == "f/5.6")
                #expect(replay.camera.property(for: .shotsAvailable).commonValue == ShotsAvailableValue(1561))
                let drives = replay.camera.property(for: .driveMode).validSettableValues.map(\.localizedDisplayValue)
                #expect(drives.contains("Single Silent"), "\(drives)")
                expectNothingUnknownIsSettable(replay.camera)
            }
        }

        @Test func aFocusModeOutsideTheTableIsUnknownWithItsCode() async throws {
            try await ReplayHarness.run("canon-powershot-g5x-libgphoto2-cameras.log") { replay in
                let focus = replay.camera.property(for: .focusMode)
                #expect(focus.currentValue?.isUnknown == true)
                #expect(focus.currentValue?.localizedDisplayValue == "Unknown (0x01CE)")
                #expect(focus.currentValue?.rawValue == .integer(0x1CE))
                #expect(replay.shown(.aperture) == "f/2")
                #expect(replay.shown(.shutterSpeed) == "1/40")
                expectNothingUnknownIsSettable(replay.camera)
            }
        }

        /// A Nikon Z 6's properties as its `gphoto2 --summary` described them: Nikon's tables give each value its
        /// meaning, and the camera's own lists are what is offered.
        @Test func aNikonMirrorlessShowsItsRealPropertyLists() async throws {
            try await ReplayHarness.run("nikon-z6-libgphoto2-cameras.log") { replay in
                #expect(replay.recording.deviceInfo.supports(.nikonCheckEvent))
                #expect(replay.camera.supportedFunctionality.isSuperset(of: [.stillCapture, .liveView, .fileAccess]))
                #expect(replay.shown(.iso) == "ISO 160")
                #expect(replay.shown(.shutterSpeed) == "1/25")
                #expect(replay.shown(.aperture) == "f/4")
                #expect(replay.camera.property(for: .autoExposureMode).commonValue == .program)
                #expect(replay.camera.property(for: .iso).validSettableValues.count == 31)
                #expect(replay.camera.property(for: .shotsAvailable).commonValue == ShotsAvailableValue(9751))
                let storages = try await replay.camera.storages()
                #expect(storages.map(\.volumeLabel) == ["[Slot 1]"])
                #expect(storages.first?.freeByteCount == 44_733_136_896)
                expectNothingUnknownIsSettable(replay.camera)
                // The camera holds its events for CheckEvent: the replay has none recorded, and answers empty.
                try await waitUntil("the client to ask for events") {
                    replay.simulator.replayCounts.answered[.nikonCheckEvent, default: 0] > 0
                }
            }
        }

        @Test func aNikonDSLRShowsItsRealPropertyLists() async throws {
            try await ReplayHarness.run("nikon-d780-libgphoto2-cameras.log") { replay in
                #expect(replay.shown(.iso) == "ISO 100")
                #expect(replay.shown(.aperture) == "f/4")
                #expect(replay.camera.property(for: .aperture).validSettableValues.count == 16)
                #expect(replay.camera.property(for: .autoExposureMode).commonValue == .aperturePriority)
                expectNothingUnknownIsSettable(replay.camera)
            }
        }

        @Test func aNikonOverWiFiWithoutFileAccessConnectsAndSaysWhatItOffers() async throws {
            try await ReplayHarness.run("nikon-z8-ptpip-libgphoto2-1135.log") { replay in
                #expect(replay.camera.deviceInfo?.manufacturer == "Nikon Corporation")
                #expect(replay.camera.deviceInfo?.version == "V3.00")
                #expect(replay.camera.supportedFunctionality.isEmpty)
                await #expect(throws: ViewfinderError.self) { try await replay.camera.storages() }
            }
        }

        @Test func aCameraWithASessionOpenAlreadyConnectsAndListsWhatItCan() async throws {
            try await ReplayHarness.run("samsung-nx01-libgphoto2-cameras.log") { replay in
                // The camera answers OpenSession with SessionAlreadyOpen, and libgphoto2 goes on in that session.
                let storages = try await replay.camera.storages()
                #expect(storages.map(\.volumeLabel) == ["-20001"])
                #expect(storages.first?.freeByteCount == 15_464_103_936)
                // The log shows the handles but not one ObjectInfo: the listing goes on past each refusal.
                let files = try await replay.camera.contents(of: nil, in: try #require(storages.first))
                #expect(files.map(\.id) == [7, 8])
                #expect(files.allSatisfy { $0.kind == .undescribed && !$0.isByteCountKnown })
            }
        }

        /// The α7S III's one GetAllExtDevicePropInfo answer, in the two-list layout, gives every setting it showed;
        /// the log shows no SDIOConnect phases 1 and 2, which the replay refuses, and the camera still connects.
        @Test func aSonyShowsItsSettingsFromItsPropertyAnswer() async throws {
            try await ReplayHarness.run("sony-a7sm3-libgphoto2-cameras.log") { replay in
                let camera = replay.camera
                #expect(camera.deviceInfo?.manufacturer == "Sony Corporation")
                #expect(camera.deviceInfo?.version == "3.00")
                #expect(camera.dialectName == "Sony")
                #expect(
                    camera.supportedFunctionality.isSuperset(of: [
                        .fileAccess, .propertyControl, .stillCapture, .liveView, .videoRecording,
                    ]))
                #expect(camera.property(for: .iso).commonValue == .automatic)
                #expect(replay.shown(.iso) == "Auto ISO")
                #expect(replay.shown(.aperture) == "f/4.5")
                #expect(replay.shown(.shutterSpeed) == "1/250")
                #expect(camera.property(for: .exposureCompensation).commonValue == .zero)
                #expect(camera.property(for: .whiteBalance).commonValue == .automatic)
                #expect(camera.property(for: .focusMode).commonValue == .automaticAutoFocus)
                #expect(camera.property(for: .autoExposureMode).commonValue == .manual)
                #expect(camera.property(for: .driveMode).commonValue == .single)
                #expect(replay.shown(.batteryLevel) == "71%")
                // Protocol 300: the camera's own lists, settable directly; its mode dial is shown only.
                #expect(camera.property(for: .iso).validSettableValues.count == 42)
                #expect(camera.property(for: .shutterSpeed).validSettableValues.first?.commonValue == .bulb)
                #expect(camera.property(for: .autoExposureMode).valueSetType == .none)
                expectNothingUnknownIsSettable(camera)
                #expect(replay.simulator.replayCounts.answered[.sonyGetAllExtDevicePropInfo, default: 0] > 0)
                #expect(replay.simulator.replayCounts.refused[.sonySDIOConnect] == 2)
                let storages = try await camera.storages()
                #expect(storages.isEmpty)
            }
        }

        /// libgphoto2 only logs a refused PriorityMode; so does the dialect, and the camera connects with its
        /// properties, whether it answers AccessDenied or does not know the operation.
        @Test(arguments: [PTPResponseCode.accessDenied, .operationNotSupported])
        func aSonyThatRefusesPriorityModeStillConnects(_ refusal: PTPResponseCode) async throws {
            var recording = try ReplayHarness.recording("sony-a7sm3-libgphoto2-cameras.log")
            let set = try #require(recording.transactions.firstIndex { $0.operation == .sonySetExtDevicePropValue })
            recording.transactions[set].response = refusal
            try await ReplayHarness.run(recording: recording) { replay in
                #expect(replay.camera.dialectName == "Sony")
                #expect(replay.simulator.replayCounts.answered[.sonySetExtDevicePropValue] == 1)
                #expect(replay.shown(.aperture) == "f/4.5")
            }
        }

        private func expectNothingUnknownIsSettable(
            _ camera: PTPCamera, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            func check<Value>(_ identifier: CameraPropertyIdentifier<Value>) {
                let values = camera.property(for: identifier).validSettableValues
                #expect(!values.contains { $0.isUnknown }, "\(identifier.name)", sourceLocation: sourceLocation)
            }
            check(.iso)
            check(.aperture)
            check(.shutterSpeed)
            check(.exposureCompensation)
            check(.autoExposureMode)
            check(.whiteBalance)
            check(.focusMode)
            check(.driveMode)
        }
    }
}
