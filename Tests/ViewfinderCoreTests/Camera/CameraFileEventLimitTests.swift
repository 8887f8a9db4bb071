import Dispatch
import Testing
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderCore

/// The bound on pictures offered the computer and on shot previews that wait for a busy observer, through the
/// connection's context as a driver reports them.
@Suite struct CameraFileEventLimitTests {
    /// What a test reports through the context: a picture offered the computer, or one written to the card.
    enum Report: CaseIterable {
        case transferRequest, newFile
    }

    @Test(arguments: Report.allCases)
    func offersBeyondTheLimitWhileAnObserverIsBusyDropTheOldestAndAreCounted(_ report: Report) async throws {
        let camera = MemoryCamera()
        try await camera.connect()
        let connection = try #require(camera.connection)
        let names = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let registry = report == .transferRequest ? camera.driverCore.transferOffers : camera.driverCore.shotPreviews
        let token = registry.addObserver { offers in
            for offer in offers {
                names.withLock { $0.append(offer.item.name) }
                if offer.item.name == "F0.JPG" {
                    entered.signal()
                    _ = release.wait(timeout: .now() + 120)
                }
            }
        }
        let send = { @Sendable (index: Int) in
            let item = CameraFileItem(
                id: UInt32(index), storageID: 1, parentID: nil, name: "F\(index).JPG", kind: .jpegImage, byteCount: 3)
            switch report {
            case .transferRequest: connection.context.reportTransferRequest(item)
            case .newFile: connection.context.reportNewFile(item)
            }
        }
        try PlatformThread.detach(name: "test-first-offer") { send(0) }
        #expect(await offThePool { entered.wait(timeout: .now() + 120) } == .success)
        // The observer is busy with F0 on the other thread: these wait for it, the oldest two dropped.
        let limit = CameraDriverCore<MemoryConnection>.fileEventLimit
        for index in 1...(limit + 2) { send(index) }
        #expect(camera.driverCore.droppedFileEventCount == 2)
        release.signal()
        try await waitUntil("the waiting offers to reach the observer") { names.withLock { $0.count } >= limit + 1 }
        #expect(names.withLock { $0 } == ["F0.JPG"] + (3...(limit + 2)).map { "F\($0).JPG" })
        #expect(camera.driverCore.droppedFileEventCount == 2)
        withExtendedLifetime(token) {}
        try await camera.disconnect()
    }
}
