import Dispatch
import Testing
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderCore

/// New files, pictures offered the computer and shot previews that a driver reports while their observer is busy:
/// they wait in order, up to the bound, and the oldest beyond it are dropped and counted.
@Suite struct CameraFileEventLimitTests {
    /// Which observer the test keeps busy.
    enum Observer: CaseIterable {
        case newFiles, transferOffers, shotPreviews
    }

    @Test(arguments: Observer.allCases)
    func reportsBeyondTheLimitWhileAnObserverIsBusyDropTheOldestAndAreCounted(_ observer: Observer) async throws {
        let camera = MemoryCamera()
        try await camera.connect()
        let connection = try #require(camera.connection)
        let names = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let observe = { @Sendable (item: CameraFileItem) in
            names.withLock { $0.append(item.name) }
            if item.name == "F0.JPG" {
                entered.signal()
                _ = release.wait(timeout: .now() + 120)
            }
        }
        let core = camera.driverCore
        let token =
            switch observer {
            case .newFiles: camera.addNewFileObserver(observe)
            case .transferOffers:
                core.transferOffers.addObserver { offers in for offer in offers { observe(offer.item) } }
            case .shotPreviews: core.shotPreviews.addObserver { offers in for offer in offers { observe(offer.item) } }
            }
        let report = { @Sendable (index: Int) in
            let item = CameraFileItem(
                id: UInt32(index), storageID: 1, parentID: nil, name: "F\(index).JPG", kind: .jpegImage, byteCount: 3)
            if observer == .transferOffers {
                connection.context.reportTransferRequest(item)
            } else {
                connection.context.reportNewFile(item)
            }
        }
        try PlatformThread.detach(name: "test-first-report") { report(0) }
        #expect(await offThePool { entered.wait(timeout: .now() + 120) } == .success)
        // The observer is busy with F0 on the other thread: these return at once and wait for it, the oldest two
        // beyond the limit dropped.
        let limit = CameraDriverCore<MemoryConnection>.fileEventLimit
        for index in 1...(limit + 2) { report(index) }
        #expect(core.droppedFileEventCount == 2)
        release.signal()
        try await waitUntil("the waiting reports to reach the observer") { names.withLock { $0.count } >= limit + 1 }
        #expect(names.withLock { $0 } == ["F0.JPG"] + (3...(limit + 2)).map { "F\($0).JPG" })
        #expect(core.droppedFileEventCount == 2)
        withExtendedLifetime(token) {}
        try await camera.disconnect()
    }
}
