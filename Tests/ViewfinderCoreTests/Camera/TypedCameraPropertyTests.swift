import Dispatch
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderSystem

/// Records what a property's observer sees.
final class ChangeRecorder<Value: CameraPropertyValue>: Sendable {
    private final class Log: Sendable {
        let entries = Locked<[(change: CameraPropertyChangeType, value: String?, isSender: Bool)]>([])
    }

    private let log: Log
    private let token: ObservationToken

    init(_ property: TypedCameraProperty<Value>) {
        let log = Log()
        self.log = log
        token = property.addObserver { [weak property] sender, change in
            let entry = (change, sender.currentValue?.localizedDisplayValue, sender === property)
            log.entries.withLock { $0.append(entry) }
        }
    }

    var changes: [CameraPropertyChangeType] { log.entries.withLock { $0.map(\.change) } }
    var values: [String?] { log.entries.withLock { $0.map(\.value) } }
    var allFromTheProperty: Bool { log.entries.withLock { $0.allSatisfy(\.isSender) } }
}

/// The code of the ViewfinderError `body` throws, or `nil`.
func errorCode(_ body: () async throws -> Void) async -> ViewfinderError.Code? {
    do {
        try await body()
        return nil
    } catch let error as ViewfinderError {
        return error.code
    } catch {
        Issue.record("expected a ViewfinderError, got \(error)")
        return nil
    }
}

/// Starts `operation` on a camera that takes sets without ever showing them, and returns once the set was sent.
func startUnansweredSet(
    on camera: FakeCamera,
    _ operation: @escaping @Sendable () async throws -> Void
) async -> Task<ViewfinderError.Code?, Never> {
    camera.setBehaviour = .ignore
    let setting = Task { await errorCode(operation) }
    var sent = camera.sentValues.makeAsyncIterator()
    _ = await sent.next()
    return setting
}

func connectedCamera(setValueTimeout: Duration = .seconds(10)) async throws -> FakeCamera {
    let camera = FakeCamera(setValueTimeout: setValueTimeout)
    try await camera.connect()
    return camera
}

@Suite struct TypedCameraPropertyObservationTests {
    @Test func observersHearEachKindOfChangeOnce() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let recorder = ChangeRecorder(iso)
        let iso800 = try #require(iso.validValue(matchingCommonValue: .iso800))
        camera.cameraReports(.iso, iso800)
        camera.cameraReports(.iso, iso800)
        iso.update(validSettableValues: [iso800])
        iso.update(currentValue: nil, validSettableValues: [])
        #expect(recorder.changes == [.value, .validSettableValues, [.value, .validSettableValues]])
        #expect(recorder.values == ["ISO 800", "ISO 800", nil])
        #expect(recorder.allFromTheProperty)
        #expect(iso.valueSetType == .none)
    }

    @Test func releasingTheTokenEndsTheObservation() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let calls = Atomic(0)
        #expect(!iso.hasObservers)
        var token: ObservationToken? = iso.addObserver { _, _ in calls.add(1, ordering: .relaxed) }
        #expect(iso.hasObservers)
        camera.cameraReports(.iso, iso.validValue(matchingCommonValue: .iso800))
        #expect(token != nil)
        token = nil
        #expect(!iso.hasObservers)
        camera.cameraReports(.iso, iso.validValue(matchingCommonValue: .iso1600))
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func anObserverMayChangeThePropertyItself() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let iso1600 = iso.validValue(matchingCommonValue: .iso1600)
        let seen = Locked<[String]>([])
        let token = iso.addObserver { property, _ in
            let shown = property.currentValue?.localizedDisplayValue ?? "none"
            seen.withLock { $0.append(shown) }
            if property.commonValue == .iso800 {
                property.update(currentValue: iso1600)
            }
        }
        camera.cameraReports(.iso, iso.validValue(matchingCommonValue: .iso800))
        #expect(seen.withLock { $0 } == ["ISO 800", "ISO 1600"])
        #expect(iso.commonValue == .iso1600)
        withExtendedLifetime(token) {}
    }

    @Test func concurrentReportsAndReadsAreSafe() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let values = Array(iso.validSettableValues)
        let inside = Atomic(0)
        let overlaps = Atomic(0)
        let token = iso.addObserver { property, _ in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            _ = property.validSettableValues.count
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 {
                iso.update(currentValue: values[(thread + index) % values.count])
                _ = iso.pendingValue
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(iso.currentValue.map(values.contains) == true)
        withExtendedLifetime(token) {}
    }
}

@Suite struct TypedCameraPropertySetValueTests {
    @Test(arguments: [FakeCamera.SetBehaviour.reflect, .reflectLater])
    func setValueReturnsOnceTheCameraShowsTheValue(behaviour: FakeCamera.SetBehaviour) async throws {
        let camera = try await connectedCamera()
        camera.setBehaviour = behaviour
        let iso = camera.property(for: .iso)
        let recorder = ChangeRecorder(iso)
        try await iso.setValue(.iso800)
        #expect(iso.commonValue == .iso800)
        #expect(iso.currentValue?.rawValue == .integer(800))
        #expect(iso.pendingValue == nil)
        var sent = camera.sentValues.makeAsyncIterator()
        let first = await sent.next()
        #expect(first?.name == "iso")
        #expect(first?.rawValue == .integer(800))
        #expect(recorder.changes.contains(.pendingValue))
        #expect(recorder.changes.contains { $0.contains(.value) })
    }

    @Test func setValueTimesOutWhenTheCameraNeverShowsTheValue() async throws {
        let camera = try await connectedCamera()
        camera.setBehaviour = .ignore
        let iso = camera.property(for: .iso)
        let code = await errorCode { try await iso.setValue(.iso800, timeout: .milliseconds(20)) }
        #expect(code == .timeout)
        #expect(iso.pendingValue == nil)
        #expect(iso.commonValue == .iso400)
    }

    @Test func theDefaultTimeoutComesFromTheStore() async throws {
        let camera = try await connectedCamera(setValueTimeout: .milliseconds(20))
        camera.setBehaviour = .ignore
        let aperture = camera.property(for: .aperture)
        #expect(aperture.setValueTimeout == .milliseconds(20))
        #expect(await errorCode { try await aperture.setValue(ApertureValue(fNumber: 2.8)!) } == .timeout)
    }

    @Test func aRefusedSetThrowsTheCamerasErrorAndClearsThePendingValue() async throws {
        let camera = try await connectedCamera()
        camera.setBehaviour = .fail(ViewfinderError(.deviceBusy, "the camera is busy"))
        let iso = camera.property(for: .iso)
        let recorder = ChangeRecorder(iso)
        #expect(await errorCode { try await iso.setValue(.iso800) } == .deviceBusy)
        #expect(iso.pendingValue == nil)
        #expect(recorder.changes == [.pendingValue, .pendingValue])
    }

    @Test func valuesTheCameraDoesNotOfferAreRefusedBeforeSending() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        #expect(await errorCode { try await iso.setValue(.iso12800) } == .invalidPropertyValue)
        let forged = TypedCameraPropertyValue(ISOValue.iso800, rawValue: .integer(9))
        #expect(await errorCode { try await iso.setValue(forged) } == .invalidPropertyValue)
        #expect(iso.pendingValue == nil)
        try await iso.setValue(.iso200)
        var sent = camera.sentValues.makeAsyncIterator()
        #expect(await sent.next()?.rawValue == .integer(200))
    }

    @Test func readOnlyAndUnreportedPropertiesCannotBeSet() async throws {
        let camera = try await connectedCamera()
        camera.install(
            .batteryLevel, values: [], current: TypedCameraPropertyValue(.percent(80), rawValue: .integer(80)))
        let battery = camera.property(for: .batteryLevel)
        #expect(battery.valueSetType == .none)
        #expect(battery.currentValue?.localizedDisplayValue == "80%")
        #expect(await errorCode { try await battery.setValue(.percent(50)) } == .invalidPropertyValue)
        let level = TypedCameraPropertyValue(BatteryLevelValue.percent(50), rawValue: .integer(50))
        #expect(await errorCode { try await battery.setValue(level) } == .notAvailable)
        #expect(await errorCode { try await battery.increment() } == .notAvailable)
        let drive = camera.property(for: .driveMode)
        #expect(drive.currentValue == nil)
        #expect(await errorCode { try await drive.increment() } == .notAvailable)
    }

    @Test func aPropertyWhoseCameraIsGoneSaysSo() async throws {
        var camera: FakeCamera? = try await connectedCamera()
        let iso = try #require(camera?.property(for: .iso))
        camera = nil
        #expect(await errorCode { try await iso.setValue(.iso800) } == .notConnected)
    }

    @Test func aLaterSetReplacesAnEarlierOne() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let earlier = await startUnansweredSet(on: camera) { try await iso.setValue(.iso800) }
        #expect(iso.pendingValue?.commonValue == .iso800)
        camera.setBehaviour = .reflect
        try await iso.setValue(.iso1600)
        #expect(await earlier.value == .cancelled)
        #expect(iso.commonValue == .iso1600)
        #expect(iso.pendingValue == nil)
    }

    @Test func cancellingTheTaskEndsTheWait() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let setting = await startUnansweredSet(on: camera) { try await iso.setValue(.iso800) }
        setting.cancel()
        #expect(await setting.value == .cancelled)
        #expect(iso.pendingValue == nil)
    }

    @Test func aLostConnectionEndsTheWaitAndForgetsValues() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let setting = await startUnansweredSet(on: camera) { try await iso.setValue(.iso800) }
        camera.loseConnection(ViewfinderError(.disconnected, "the camera stopped answering"))
        #expect(await setting.value == .disconnected)
        #expect(iso.currentValue == nil)
        #expect(iso.pendingValue == nil)
        #expect(iso.validSettableValues.isEmpty)

        // Until the camera reports the property again, sets say why it has no values.
        let later = await #expect(throws: ViewfinderError.self) { try await iso.setValue(.iso400) }
        #expect(later?.code == .disconnected)
        #expect(later?.message == "ISO cannot be set: the camera stopped answering", "\(String(describing: later))")
        #expect(await errorCode { try await iso.increment() } == .disconnected)
        camera.installStandardProperties()
        #expect(await errorCode { try await iso.setValue(.iso50) } == .invalidPropertyValue)
    }

    @Test func commonValuesThatNoSettableValueMatchesAreRefused() async throws {
        let camera = try await connectedCamera()
        let shutter = camera.property(for: .shutterSpeed)
        do {
            try await shutter.setValue(.bulb)
            Issue.record("setting bulb should fail")
        } catch let error as ViewfinderError {
            #expect(error.code == .invalidPropertyValue)
            #expect(error.message.contains("Bulb is not one of the values Shutter Speed accepts now: 30\""))
        }
        try await shutter.setValue(ShutterSpeedValue(seconds: 0.3)!)
        #expect(shutter.currentValue?.rawValue == .integer(3333))
    }

    @Test func theCompletionHandlerRunsOnTheChosenQueue() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let value = try #require(iso.validValue(matchingCommonValue: .iso3200))
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "completion")
        queue.setSpecific(key: key, value: "completion")
        let (error, queueName): ((any Error)?, String?) = await withCheckedContinuation { continuation in
            iso.setValue(value, completionQueue: queue) { error in
                continuation.resume(returning: (error, DispatchQueue.getSpecific(key: key)))
            }
        }
        #expect(error == nil)
        #expect(queueName == "completion")
        #expect(iso.commonValue == .iso3200)
        let refusal: (any Error)? = await withCheckedContinuation { continuation in
            iso.setValue(.iso12800) { continuation.resume(returning: $0) }
        }
        #expect((refusal as? ViewfinderError)?.code == .invalidPropertyValue)
    }
}

@Suite struct TypedCameraPropertyStepTests {
    @Test func incrementAndDecrementFollowTheCamerasOrder() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        #expect(try await iso.increment().commonValue == .iso800)
        #expect(iso.commonValue == .iso800)
        try await iso.decrement()
        try await iso.decrement()
        #expect(iso.commonValue == .iso200)
    }

    @Test func theEndsOfTheValuesAreFirm() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        try await iso.setValue(.iso25600)
        #expect(await errorCode { try await iso.increment() } == .invalidPropertyValue)
        try await iso.setValue(.automatic)
        #expect(await errorCode { try await iso.decrement() } == .invalidPropertyValue)
        #expect(iso.commonValue == .automatic)
        #expect(iso.currentValue?.localizedDisplayValue == "Auto ISO")
    }

    @Test func quickStepsBuildOnThePendingValue() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let first = await startUnansweredSet(on: camera) { try await iso.increment() }
        camera.setBehaviour = .reflect
        #expect(try await iso.increment().commonValue == .iso1600)
        #expect(await first.value == .cancelled)
    }

    @Test func aValueOutsideTheSettableValuesHasNoNeighbours() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        camera.cameraReports(
            .iso, TypedCameraPropertyValue(unrecognizedRawValue: .integer(0x8012), localizedDisplayValue: "Hi 1"))
        #expect(iso.commonValue == nil)
        #expect(iso.currentValue?.localizedDisplayValue == "Hi 1")
        #expect(await errorCode { try await iso.increment() } == .invalidPropertyValue)
    }

    @Test func numericRangesStepByTheirStep() async throws {
        let camera = try await connectedCamera()
        let brightness = CameraPropertyIdentifier<CameraControlValue>(
            name: "brightness", localizedDisplayName: "Brightness")
        let values = try CameraPropertySettableValues<CameraControlValue>.numericRange(from: 0, through: 255, step: 5) {
            .integer($0)
        }
        camera.install(brightness, values: values, current: values[2])
        let property = camera.property(for: brightness)
        #expect(try await property.increment().commonValue == .integer(15))
        try await property.setValue(.integer(255))
        #expect(property.currentValue?.rawValue == .integer(255))
    }

    /// A ladder of apertures a camera steps through without listing them.
    static let apertureLadder = [280, 400, 560, 800, 1100].map {
        TypedCameraPropertyValue(ApertureValue(hundredthsOfFNumber: $0)!, rawValue: .integer(Int64($0)))
    }

    @Test func aSteppingPropertyMovesOnlyByIncrementAndDecrement() async throws {
        let camera = try await connectedCamera()
        camera.installStepping(.aperture, ladder: Self.apertureLadder, current: 2)
        let aperture = camera.property(for: .aperture)
        #expect(aperture.valueSetType == .stepping)
        #expect(aperture.validSettableValues.isEmpty)
        let recorder = ChangeRecorder(aperture)

        #expect(try await aperture.increment().localizedDisplayValue == "f/8")
        #expect(try await aperture.increment().localizedDisplayValue == "f/11")
        #expect(try await aperture.decrement().localizedDisplayValue == "f/8")
        #expect(recorder.values == ["f/8", "f/11", "f/8"])
        #expect(recorder.changes.allSatisfy { $0 == .value })  // no pending value: the next one is not known

        // A value cannot be chosen, not even one the camera has shown.
        let error = try await #require(throws: ViewfinderError.self) {
            try await aperture.setValue(Self.apertureLadder[0])
        }
        #expect(error.code == .invalidPropertyValue)
        #expect(error.message.contains("increment()"))
        #expect(
            await errorCode { try await aperture.setValue(ApertureValue(hundredthsOfFNumber: 800)!) }
                == .invalidPropertyValue)
    }

    @Test func aStepTheCameraReportsLaterStillEnds() async throws {
        let camera = try await connectedCamera()
        camera.installStepping(.aperture, ladder: Self.apertureLadder, current: 0)
        camera.setBehaviour = .reflectLater
        let aperture = camera.property(for: .aperture)
        #expect(try await aperture.increment(timeout: .seconds(10)).localizedDisplayValue == "f/4")
        #expect(aperture.currentValue?.localizedDisplayValue == "f/4")
    }

    @Test func aStepThatChangesNothingTimesOutNamingTheStep() async throws {
        let camera = try await connectedCamera()
        camera.installStepping(.aperture, ladder: Self.apertureLadder, current: 4)
        let aperture = camera.property(for: .aperture)
        let error = try await #require(throws: ViewfinderError.self) {
            try await aperture.increment(timeout: .milliseconds(100))
        }
        #expect(error.code == .timeout)
        #expect(error.message.contains("stepping Aperture up"), "\(error.message)")
        #expect(aperture.currentValue?.localizedDisplayValue == "f/11")
    }

    @Test func aLaterStepReplacesAnUnansweredOne() async throws {
        let camera = try await connectedCamera()
        camera.installStepping(.aperture, ladder: Self.apertureLadder, current: 2)
        let aperture = camera.property(for: .aperture)
        let first = await startUnansweredSet(on: camera) { try await aperture.increment() }
        camera.setBehaviour = .reflect
        #expect(try await aperture.decrement().localizedDisplayValue == "f/4")
        #expect(await first.value == .cancelled)
    }

    @Test func aRefusedStepThrowsTheCamerasErrorAndABackendThatCannotStepSaysSo() async throws {
        let camera = try await connectedCamera()
        camera.installStepping(.aperture, ladder: Self.apertureLadder, current: 2)
        camera.setBehaviour = .fail(ViewfinderError(.deviceBusy, "the camera is busy"))
        #expect(await errorCode { try await camera.property(for: .aperture).increment() } == .deviceBusy)

        final class ListingOnly: CameraPropertyBackend {
            func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {}
        }
        let backend = ListingOnly()
        let store = CameraPropertyStore()
        let property = store.property(for: .aperture, backend: backend)
        property.update(currentValue: Self.apertureLadder[0], validSettableValues: .stepping)
        #expect(await errorCode { try await property.increment() } == .notAvailable)
        #expect(property.currentValue == Self.apertureLadder[0])
    }
}
