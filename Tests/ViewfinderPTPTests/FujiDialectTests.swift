import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// The Fuji dialect: Fujifilm's value tables, the choice of dialect, and a camera over Fujifilm's WiFi protocol
/// driven through its connect steps, settings, shutter and the switch between remote shooting and its files.
@Suite struct FujiDialectTests {
    @Test func isoAutoSettingsAreAutomaticWithTheirNumber() {
        let auto2 = FujiPropertyValues.iso(-2)
        #expect(auto2.commonValue == .automatic && auto2.localizedDisplayValue == "Auto 2")
        #expect(FujiPropertyValues.iso(800).commonValue == .iso800)
        #expect(FujiPropertyValues.iso(-7).isUnknown && FujiPropertyValues.iso(0).isUnknown)
    }

    @Test func shutterSpeedsArePowerOfTwoMicrosecondsMinutesAndBulb() {
        #expect(FujiPropertyValues.shutterSpeed(15625).localizedDisplayValue == "1/60")
        #expect(FujiPropertyValues.shutterSpeed(19686).localizedDisplayValue == "1/50")
        #expect(FujiPropertyValues.shutterSpeed(1_000_000).commonValue == ShutterSpeedValue(seconds: 1))
        #expect(FujiPropertyValues.shutterSpeed(64_000_030).commonValue == ShutterSpeedValue(seconds: 120))
        #expect(FujiPropertyValues.shutterSpeed(64_000_180).commonValue == ShutterSpeedValue(seconds: 3600))
        #expect(FujiPropertyValues.shutterSpeed(0xFFFF_FFFF).commonValue == .bulb)
        #expect(FujiPropertyValues.shutterSpeed(0).isUnknown)
    }

    @Test func filmSimulationsWhiteBalancesAndDriveModesFollowFujifilmsCodes() {
        #expect(FujiPropertyValues.filmSimulation(11).commonValue?.name == "Classic Chrome")
        #expect(FujiPropertyValues.filmSimulation(99).isUnknown)
        let white = { StandardPropertyValues.whiteBalance($0, vendor: FujiPropertyValues.whiteBalance) }
        #expect(white(0x8006).commonValue == .shade && white(0x8003).commonValue == .fluorescent)
        #expect(white(0x8020).isUnknown)
        let focus = { StandardPropertyValues.focusMode($0, vendor: FujiPropertyValues.focusMode) }
        #expect(focus(1).commonValue == .manual && focus(0x8001).commonValue == .singleAutoFocus)
        let drive = { StandardPropertyValues.driveMode($0, vendor: FujiPropertyValues.driveMode) }
        #expect(drive(3).commonValue == .continuousHigh && drive(5).localizedDisplayValue == "Mirror Up")
        #expect(FujiPropertyValues.batteryPercent("100,0,0") == 100 && FujiPropertyValues.batteryPercent("x") == nil)
    }

    @Test func fujifilmCamerasAreClaimedByVendorOrDescription() {
        var info = FujiCameraPeer.deviceInfo
        #expect(PTPDialects.dialect(for: info).name == "Fujifilm")
        info.vendorExtensionID = 6
        #expect(PTPDialects.dialect(for: info).name == "Fujifilm")
        info.vendorExtensionDescription = "microsoft.com: 1.0; "
        info.manufacturer = "Other"
        #expect(PTPDialects.dialect(for: info).name == "standard PTP")
    }

    /// Connects a PTPCamera to the peer over Fujifilm's WiFi protocol.
    func connect(_ camera: FujiCameraPeer) async throws -> (PTPCamera, FujiScriptedPeer) {
        let peer = try FujiScriptedPeer { peer in try camera.serve(peer) }
        let ptpCamera = PTPCamera(endpoint: FujiWiFiEndpoint(host: "127.0.0.1", configuration: peer.configuration()))
        try await ptpCamera.connect()
        return (ptpCamera, peer)
    }

    @Test func overWiFiTheCameraStartsRemoteShootingAndShowsFujifilmValues() async throws {
        let fuji = FujiCameraPeer()
        let (camera, peer) = try await connect(fuji)
        let opening = fuji.requests.withLock { Array($0.prefix(4)) }
        try #require(opening.map(\.code) == [0x1016, 0x1015, 0x1016, 0x101C], "\(opening)")
        #expect(opening[0].parameters == [0xDF01] && opening[0].data == [5, 0])
        #expect(opening[2].parameters == [0xDF24] && opening[2].data == [0x0C, 0, 2, 0], "the version echoed back")
        #expect(camera.property(for: .iso).currentValue?.localizedDisplayValue == "Auto 1")
        #expect(camera.property(for: .shutterSpeed).currentValue?.localizedDisplayValue == "1/60")
        #expect(camera.property(for: .filmSimulation).currentValue?.localizedDisplayValue == "Classic Chrome")
        #expect(camera.property(for: .filmSimulation).validSettableValues.count == 2, "code 99 is not offered")
        #expect(camera.property(for: .whiteBalance).validSettableValues.count == 2, "0x8020 is not offered")
        #expect(camera.property(for: .batteryLevel).currentValue?.commonValue == BatteryLevelValue(clampingPercent: 80))
        try await camera.property(for: .iso).setValue(.iso800)
        #expect(camera.property(for: .iso).currentValue?.commonValue == .iso800)
        #expect(fuji.requests.withLock { $0.contains { $0.parameters == [0x500F] && $0.data == [0x20, 3, 0, 0] } })
        try await camera.disconnect()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func theShutterFocusesThenShootsAndReportsTheNewFile() async throws {
        let fuji = FujiCameraPeer()
        let (camera, peer) = try await connect(fuji)
        let files = Observed<CameraFileItem>()
        let token = camera.addNewFileObserver { files.append($0) }
        let start = fuji.requests.withLock { $0.count }
        try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
        try await waitUntil("the new file to be reported") { files.all.count == 1 }
        #expect(files.all.first?.name == "DSCF0002.JPG")
        let actions = fuji.requests.withLock { $0[start...].filter { $0.parameters == [0xD208] }.map(\.data) }
        #expect(actions == [[0x00, 0x02], [0x04, 0x03]])
        #expect(fuji.requests.withLock { $0[start...].contains { $0.code == 0x1015 && $0.parameters == [0xD209] } })
        withExtendedLifetime(token) {}
        try await camera.disconnect()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func aCameraThatCannotFocusTakesNoPicture() async throws {
        let fuji = FujiCameraPeer(afStatus: 3)
        let (camera, peer) = try await connect(fuji)
        let error = await #expect(throws: ViewfinderError.self) {
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
        }
        #expect(error?.code == .notAvailable)
        #expect(fuji.requests.withLock { !$0.contains { $0.parameters == [0xD208] && $0.data == [0x04, 0x03] } })
        try await camera.disconnect()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func filesSwitchTheCameraToItsPicturesAndTheShutterSwitchesItBack() async throws {
        let fuji = FujiCameraPeer()
        let (camera, peer) = try await connect(fuji)
        let start = fuji.requests.withLock { $0.count }
        _ = try await camera.storages()
        let switched = fuji.requests.withLock { Array($0[start...].prefix(4)) }
        #expect(switched.map(\.parameters) == [[0xDF00], [0xDF01], [0xDF25], []], "\(switched)")
        #expect(switched.map(\.data) == [[6, 0], [11, 0], [5, 0, 0, 0], nil])
        #expect(switched.last?.code == PTPOperationCode.getStorageIDs.rawValue)
        let again = fuji.requests.withLock { $0.count }
        _ = try await camera.storages()
        #expect(fuji.requests.withLock { $0[again...].allSatisfy { $0.code != 0x1016 } }, "no second switch")
        let back = fuji.requests.withLock { $0.count }
        try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
        #expect(fuji.requests.withLock { $0[back] } == .init(code: 0x1016, parameters: [0xDF01], data: [5, 0]))
        try await camera.disconnect()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func commandCategoriesSwitchBetweenRemoteShootingAndFilesOneAtATime() async throws {
        let fuji = FujiCameraPeer()
        let (camera, peer) = try await connect(fuji)
        #expect(camera.supportedCommandCategories.isSuperset(of: [.stillsShooting, .fileAccess]))
        #expect(camera.currentCommandCategories == .stillsShooting)
        // Both at once is refused before anything is sent.
        let before = fuji.requests.withLock { $0.count }
        let both = await #expect(throws: ViewfinderError.self) {
            try await camera.switchToCommandCategories([.stillsShooting, .fileAccess])
        }
        #expect(both?.code == .invalidArgument)
        #expect(fuji.requests.withLock { $0.count } == before)

        // The files: CameraState 6, ClientState 11, RemoteGetObjectVersion 5, as a file operation switches.
        try await camera.switchToCommandCategories(.fileAccess)
        let switched = fuji.requests.withLock { Array($0[before...]) }
        #expect(switched.map(\.parameters) == [[0xDF00], [0xDF01], [0xDF25]], "\(switched)")
        #expect(camera.currentCommandCategories == .fileAccess)
        // Serving them already, the camera is left as it is.
        let again = fuji.requests.withLock { $0.count }
        try await camera.switchToCommandCategories(.fileAccess)
        #expect(fuji.requests.withLock { $0.count } == again)

        // Back to remote shooting, through the completion-handler form: ClientState 5.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            camera.switchToCommandCategories(.stillsShooting) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
        #expect(fuji.requests.withLock { $0[again...].map(\.data) } == [[5, 0]])
        #expect(camera.currentCommandCategories == .stillsShooting)
        // A file operation switches too, and says so.
        _ = try await camera.storages()
        #expect(camera.currentCommandCategories == .fileAccess)
        try await camera.disconnect()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func aCameraThatRefusesToShowItsPicturesSaysSo() async throws {
        let fuji = FujiCameraPeer(refusedClientStates: [11])
        let (camera, peer) = try await connect(fuji)
        let error = await #expect(throws: ViewfinderError.self) { _ = try await camera.storages() }
        #expect(error?.code == .notAvailable)
        #expect(error?.message.contains("did not switch from remote shooting to its pictures") == true)
        try await camera.disconnect()
        #expect(try await peer.recordedFailures() == [])
    }
}
