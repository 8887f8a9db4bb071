import Foundation
import Testing
import ViewfinderCore
import ViewfinderPTP
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderRig

/// A rig of simulated PTP/IP cameras over loopback: every camera connects, takes the setting, fires and delivers its
/// picture; one that goes away is reported while the others finish, and comes back.
@Suite(.serialized, .timeLimit(.minutes(3))) struct CameraRigTests {
    @Test func everyCameraConnectsTakesTheSettingAndDeliversItsPicture() async throws {
        try await RigHarness.run(count: 4) { harness in
            let rig = harness.rig
            let connected = await rig.connect(timeout: .seconds(60))
            #expect(connected.allSucceeded, "\(connected.failures)")
            #expect(connected.outcomes.map(\.camera) == ["cam0", "cam1", "cam2", "cam3"])
            #expect(rig.members.allSatisfy { $0.camera.connectionState == .connected })

            let set = await rig.setValue(ISOValue.iso800, for: .iso)
            #expect(set.allSucceeded, "\(set.failures)")
            for member in rig.members {
                try await waitUntil("\(member.name) to report ISO 800") {
                    member.camera.property(for: .iso).currentValue?.commonValue == .iso800
                }
            }

            let report = await rig.capturePictures(into: harness.directory, settleTime: .milliseconds(100))
            #expect(report.allSucceeded, "\(report.failures)")
            for (index, simulator) in harness.simulator.enumerated() {
                let capture = try #require(try report["cam\(index)"]?.result.get())
                #expect(capture.files.count == 1)
                let file = try #require(capture.files.first)
                #expect(file.path == "\(harness.directory)/cam\(index)-DSC_0001.JPG")
                let saved = try #require(FileManager.default.contents(atPath: file.path))
                #expect(Array(saved) == simulator.objectData(file.item.id), "cam\(index)'s picture differs")
                #expect(capture.release.requested <= capture.release.completed)
                #expect(simulator.lastShutterRelease != nil)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: harness.directory).sorted()
            #expect(names == (0..<4).map { "cam\($0)-DSC_0001.JPG" })
            #expect(report.requestSpread >= .zero)
        }
    }

    @Test func aCameraKilledMidRigIsReportedWhileTheOthersFinishAndComesBack() async throws {
        try await RigHarness.run(count: 3) { harness in
            let rig = harness.rig
            #expect(await rig.connect(timeout: .seconds(60)).allSucceeded)
            let killed = harness.simulator[1]
            killed.dropAllConnections()
            await killed.stopOffThePool()
            try await waitUntil("cam1 to notice") { rig.members[1].camera.connectionState == .notConnected }

            let report = await rig.capturePictures(into: harness.directory, settleTime: .milliseconds(100))
            #expect(report.successes.map(\.camera) == ["cam0", "cam2"])
            let failure = try #require(report.failures.first)
            #expect(report.failures.count == 1)
            #expect(failure.camera == "cam1")
            #expect(failure.error.code == .notConnected)
            #expect(failure.error.message.contains("cam1"))

            // Nothing answers on its port: connecting again fails for it alone.
            let refused = await rig.connect(timeout: .seconds(60))
            #expect(refused.failures.map(\.camera) == ["cam1"])
            #expect(refused.successes.map(\.camera) == ["cam0", "cam2"])

            // Switched back on, it joins the next take.
            try harness.restart(1)
            #expect(await rig.connect(timeout: .seconds(60)).allSucceeded)
            let second = await rig.fireShutters()
            #expect(second.allSucceeded, "\(second.failures)")
            #expect(harness.simulator[1].lastShutterRelease != nil)
        }
    }

    @Test func aCameraThatCrashesDuringTheTakeFailsAloneAndTheOthersDeliver() async throws {
        try await RigHarness.run(count: 3) { harness in
            let rig = harness.rig
            #expect(await rig.connect(timeout: .seconds(60)).allSucceeded)
            // A one-second exposure keeps every shutter open long enough to pull one camera out mid-take.
            #expect(await rig.setValue(try #require(ShutterSpeedValue(seconds: 1)), for: .shutterSpeed).allSucceeded)
            async let take = rig.capturePictures(into: harness.directory, settleTime: .milliseconds(100))
            try await waitUntil("every shutter to open") {
                harness.simulator.allSatisfy { $0.lastShutterRelease != nil }
            }
            harness.simulator[1].dropAllConnections()
            let report = await take
            #expect(report.successes.map(\.camera) == ["cam0", "cam2"])
            let failure = try #require(report["cam1"])
            guard case .failure(let error) = failure.result else {
                Issue.record("cam1 delivered a picture from a camera that crashed mid-exposure")
                return
            }
            #expect(error.code == .disconnected, "\(error)")
            let names = try FileManager.default.contentsOfDirectory(atPath: harness.directory).sorted()
            #expect(names == ["cam0-DSC_0001.JPG", "cam2-DSC_0001.JPG"])
        }
    }

    @Test func aCameraThatStopsAnsweringTimesOutAloneWithinTheRigsLimit() async throws {
        try await RigHarness.run(count: 3) { harness in
            let rig = harness.rig
            #expect(await rig.connect(timeout: .seconds(60)).allSucceeded)
            // cam2 leaves the network without a word: its picture is never reported, and the rig stops waiting for it
            // at its own limit, long before the camera's capture timeout.
            harness.simulator[2].stopAnswering()
            // The rig's limit is well below the camera's own capture timeout of a minute, and well above what a
            // picture takes, however loaded the machine.
            let report = await rig.fireShutters(timeout: .seconds(10))
            #expect(report.successes.map(\.camera) == ["cam0", "cam1"])
            let failure = try #require(report.failures.first)
            #expect(report.failures.count == 1)
            #expect(failure.camera == "cam2")
            #expect(failure.error.code == .timeout, "\(failure.error)")
            #expect(failure.error.message.contains("cam2"))
        }
    }

    @Test func liveViewPacesEachCameraByItsOwnReadyHandler() async throws {
        try await RigHarness.run(count: 3, configuration: .init(identity: .nikon, sampleImageCount: 0)) { harness in
            let rig = harness.rig
            #expect(await rig.connect(timeout: .seconds(60)).allSucceeded)
            let counts = Locked<[String: Int]>([:])
            let held = Locked<Subscribers.ReadyHandler?>(nil)
            let watching = rig.liveView { _, _ in
            } receiveFrame: { camera, frame, ready in
                counts.withLock { $0[camera, default: 0] += 1 }
                // cam0's consumer never gets ready again: it gets one frame while the others go on.
                if camera == "cam0" { held.withLock { $0 = ready } } else { ready() }
            }
            try await waitUntil("cam1 and cam2 to deliver 10 frames each") {
                counts.withLock { ($0["cam1"] ?? 0) >= 10 && ($0["cam2"] ?? 0) >= 10 }
            }
            #expect(counts.withLock { $0["cam0"] } == 1)
            // Once ready, cam0 sends its next frame.
            held.withLock { $0 }?()
            try await waitUntil("cam0's second frame") { counts.withLock { $0["cam0"] ?? 0 } >= 2 }
            watching.cancel()
        }
    }

    @Test func aCameraThatCannotTakePicturesFailsWithoutHoldingTheOthers() async throws {
        try await RigHarness.run(count: 2) { harness in
            // cam1 is never connected: it fails before the gate, and cam0 fires anyway.
            let rig = harness.rig
            try await rig.members[0].camera.connect()
            let report = await rig.fireShutters(timeout: .seconds(60))
            #expect(report.successes.map(\.camera) == ["cam0"])
            #expect(report["cam1"].map { (try? $0.result.get()) == nil } == true)
            #expect(harness.simulator[0].lastShutterRelease != nil)
            #expect(harness.simulator[1].lastShutterRelease == nil)
        }
    }

    @Test func membersNeedNamesThatFitFileNamesAndDistinctCameras() throws {
        let camera = PTPCamera(host: "127.0.0.1")
        let other = PTPCamera(host: "127.0.0.1")
        #expect(throws: ViewfinderError.self) { try CameraRig(members: []) }
        for bad in ["", ".hidden", "a/b", "left camera", String(repeating: "x", count: 65), "é"] {
            let error = #expect(throws: ViewfinderError.self) {
                try CameraRig(members: [RigMember(name: bad, camera: camera)])
            }
            #expect(error?.code == .invalidArgument, "'\(bad)'")
        }
        let twice = #expect(throws: ViewfinderError.self) {
            try CameraRig(members: [RigMember(name: "a", camera: camera), RigMember(name: "a", camera: other)])
        }
        #expect(twice?.message.contains("named 'a'") == true)
        let same = #expect(throws: ViewfinderError.self) {
            try CameraRig(members: [RigMember(name: "a", camera: camera), RigMember(name: "b", camera: camera)])
        }
        #expect(same?.message.contains("twice") == true)
        let rig = try CameraRig(members: [RigMember(name: "cam-1.left_2", camera: camera)])
        #expect(rig.members.map(\.name) == ["cam-1.left_2"])
    }
}
