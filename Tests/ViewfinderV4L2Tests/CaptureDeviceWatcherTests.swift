import Testing
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

@Suite struct CaptureDeviceWatcherTests {
    @Test func announcesNodesCreatedAndDeletedInTheWatchedDirectory() async throws {
        var template = Array("/tmp/viewfinder-watch-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { rmdir(directory) }
        let directoryName = String(directory.dropFirst(5))
        let system = FakeV4L2System(directory: "/tmp", nodes: [:])
        let events = Locked<[CaptureDeviceWatcher.Event]>([])
        let watcher = try CaptureDeviceWatcher(directory: directory, system: system) { event in
            events.withLock { $0.append(event) }
        }
        let path = directory + "/video3"
        system.add("\(directoryName)/video3")
        close(open(path, O_CREAT | O_WRONLY, 0o600))
        close(open(directory + "/notes.txt", O_CREAT | O_WRONLY, 0o600))
        try await waitUntil { events.withLock { $0.count } == 1 }
        unlink(path)
        unlink(directory + "/notes.txt")
        try await waitUntil { events.withLock { $0.count } == 2 }
        watcher.cancel()
        let device = CaptureDevice(
            path: path, name: "Fake Camera", bus: "usb-0000:00:14.0-1", driver: "fakecam",
            capabilities: FakeV4L2System.Node().capabilities)
        #expect(events.withLock { $0 } == [.attached(device), .detached(device)])
    }
}
