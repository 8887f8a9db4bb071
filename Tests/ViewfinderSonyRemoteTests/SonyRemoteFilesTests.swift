import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSonyRemote
import ViewfinderSystem
import ViewfinderTestSupport

/// The Sony Camera Remote API driver's card: the switch to `Contents Transfer` and back, the `avContent` listing in
/// pages, and downloads, against the simulated α6000 on loopback.
@Suite struct SonyRemoteFilesTests {
    @Test func theCardIsListedInPagesAndDownloadedAndAShootingCallSwitchesBack() async throws {
        try await SonyRemoteCameraTests.withSimulator(picturesOnCard: 250) { camera, _, log in
            try await camera.connect()
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            #expect(camera.currentCommandCategories.contains(.stillsShooting))
            #expect(!camera.currentCommandCategories.contains(.fileAccess))
            let files = try #require(camera.fileAccess)
            let storages = try await files.storages()
            #expect(storages.map(\.storageDescription) == ["storage:memoryCard1"])
            #expect(camera.currentCommandCategories == .fileAccess)
            let items = try await files.contents(of: nil, in: storages[0])
            #expect(items.count == 251)
            #expect(items.first?.name == "DSC00001.JPG")
            #expect(items.last?.name == "pict1.JPG")
            #expect(Set(items.map(\.id)).count == 251)
            #expect(
                log.withLock { $0 }.filter { $0.hasPrefix("content list") } == [
                    "content list from 0, 100 of 100", "content list from 100, 100 of 100",
                    "content list from 200, 51 of 51",
                ])
            // Listed again, the same stills keep their ids.
            #expect(try await files.contents(of: nil, in: storages[0]).map(\.id) == items.map(\.id))

            let progress = Locked<[CameraTransferProgress]>([])
            let original = try await files.downloadData(of: items[4]) { step in progress.withLock { $0.append(step) } }
            #expect(original.prefix(2) == [0xFF, 0xD8] && original.suffix(2) == [0xFF, 0xD9])
            #expect(progress.withLock { $0.last?.completedByteCount } == UInt64(original.count))
            let thumbnail = try await files.thumbnail(of: items[4])
            #expect(thumbnail.prefix(2) == [0xFF, 0xD8])
            #expect(thumbnail.count < original.count)
            let taken = try await files.downloadData(of: items[250]) { _ in }
            #expect(taken.prefix(2) == [0xFF, 0xD8])

            // Both at once is refused: the camera serves one at a time.
            let both = await #expect(throws: ViewfinderError.self) {
                try await camera.switchToCommandCategories([.fileAccess, .stillsShooting])
            }
            #expect(both?.code == .invalidArgument, "\(String(describing: both))")
            // A setting switches the camera back to shooting first.
            try await camera.property(for: .iso).setValue(.iso400)
            #expect(camera.property(for: .iso).commonValue == .iso400)
            #expect(camera.currentCommandCategories.contains(.stillsShooting))
            #expect(
                log.withLock { $0 }.filter { $0.hasPrefix("camera function") } == [
                    "camera function Contents Transfer", "camera function Remote Shooting",
                ])
            try await camera.switchToCommandCategories(.fileAccess)
            #expect(camera.currentCommandCategories == .fileAccess)
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
            #expect(log.withLock { $0 }.contains("new picture pict2.JPG"))
            try await camera.disconnect()
        }
    }

    /// A count far past what the card holds is not allocated nor asked for in pages beyond the first short one.
    @Test func aHostileCountEndsAtTheFirstShortPage() async throws {
        try await SonyRemoteCameraTests.withSimulator(contentCount: 2_000_000_000) {
            camera, _, log in
            try await camera.connect()
            let files = try #require(camera.fileAccess)
            let storage = try #require(try await files.storages().first)
            let items = try await files.contents(of: nil, in: storage)
            #expect(items.map(\.name) == ["DSC00001.JPG", "DSC00002.JPG", "DSC00003.JPG"])
            #expect(log.withLock { $0 }.filter { $0.hasPrefix("content list") } == ["content list from 0, 3 of 100"])
            try await camera.disconnect()
        }
    }

    /// The driver lists no more stills than its configured bound, in as few pages as that needs.
    @Test func theListingStopsAtTheConfiguredBound() async throws {
        try await SonyRemoteCameraTests.withSimulator(picturesOnCard: 150, maximumContentCount: 120) { camera, _, log in
            try await camera.connect()
            let files = try #require(camera.fileAccess)
            let storage = try #require(try await files.storages().first)
            let items = try await files.contents(of: nil, in: storage)
            #expect(items.count == 120)
            #expect(items.last?.name == "DSC00120.JPG")
            #expect(
                log.withLock { $0 }.filter { $0.hasPrefix("content list") } == [
                    "content list from 0, 100 of 100", "content list from 100, 20 of 20",
                ])
            try await camera.disconnect()
        }
    }

    /// A page longer than asked for is refused, not kept.
    @Test func aPageLongerThanAskedForIsAClearError() async throws {
        try await SonyRemoteCameraTests.withSimulator(picturesOnCard: 5, contentCount: 2, contentPageExcess: 1) {
            camera, _, _ in
            try await camera.connect()
            let files = try #require(camera.fileAccess)
            let storage = try #require(try await files.storages().first)
            let error = await #expect(throws: ViewfinderError.self) { try await files.contents(of: nil, in: storage) }
            #expect(error?.code == .malformedData, "\(String(describing: error))")
            #expect(error?.message.contains("getContentList") == true, "\(String(describing: error))")
            try await camera.disconnect()
        }
    }

    /// A long poll answered before the switch to the card (the camera still shooting), whose answer arrives after the
    /// switch was seen done, leaves the camera serving its card: its listing is not refused for a second switch.
    @Test func aLongPollAnsweredLateDoesNotUndoTheSwitchToTheCard() async throws {
        try await SonyRemoteCameraTests.withSimulator(longPollAnswerDelay: .milliseconds(1500)) {
            camera, simulator, log in
            try await camera.connect()
            try await waitUntil { simulator.longPollsWaiting == 1 }
            // A change made by another client answers the driver's long poll with the camera shooting; the answer
            // arrives late, after the switch below.
            _ = try await SonyRemoteCameraTests.call(
                "setIsoSpeedRate", [.string("1600")], port: camera.configuration.port)
            try await waitUntil { simulator.longPollsWaiting == 0 }
            try await camera.switchToCommandCategories(.fileAccess)
            // The late answer has been taken once the driver's next long poll waits.
            try await waitUntil { simulator.longPollsWaiting == 1 }
            #expect(camera.property(for: .iso).commonValue == .iso1600)
            #expect(camera.currentCommandCategories == .fileAccess)
            let files = try #require(camera.fileAccess)
            let storage = try #require(try await files.storages().first)
            #expect(try await files.contents(of: nil, in: storage).count == 3)
            #expect(log.withLock { $0 }.filter { $0.hasPrefix("set CameraFunction") }.count == 1)
        }
    }

    /// Disconnecting from a camera serving its card leaves it shooting, as it was found.
    @Test func disconnectingSwitchesTheCameraBackToShooting() async throws {
        try await SonyRemoteCameraTests.withSimulator { camera, _, log in
            try await camera.connect()
            try await camera.switchToCommandCategories(.fileAccess)
            try await camera.disconnect()
            #expect(log.withLock { $0 }.last { $0.hasPrefix("camera function") } == "camera function Remote Shooting")
        }
    }
}
