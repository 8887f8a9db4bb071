import Testing
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderCore

/// Automatic discovery's list and its observers, with searchers held in memory; the real searchers are tested
/// against independent peers in ViewfinderDiscoveryTests.
@Suite struct CameraSearchTests {
    static func camera(
        _ id: String, host: String, by method: DiscoveryMethod, model: String = "", family: CameraFamily = .canon
    ) -> DiscoveredCamera {
        DiscoveredCamera(
            id: id, family: family, manufacturer: "Canon", model: model, name: "R6",
            address: .network(host: host, port: method == .multicastDNS ? 15740 : nil), foundBy: method)
    }

    @Test func oneCameraSeenBothWaysIsOneEntryUntilBothLetGo() {
        var list = DiscoveredCameraList()
        let now = ContinuousClock.now
        let mdns = Self.camera("guid-1", host: "10.0.0.2", by: .multicastDNS, family: .genericPTPIP)
        let ssdp = Self.camera("uuid:1", host: "10.0.0.2", by: .ssdp, model: "Canon EOS R6")
        #expect(
            list.apply(.seen(key: "mdns:R6", camera: mdns, lifetime: .seconds(120)), at: now) == [.discovered(mdns)])
        let changes = list.apply(.seen(key: "ssdp:uuid:1", camera: ssdp, lifetime: .seconds(1800)), at: now)
        try? #require(list.cameras.count == 1)
        let merged = list.cameras[0]
        #expect(merged.foundBy == [.ssdp, .multicastDNS])
        #expect(merged.model == "Canon EOS R6")
        #expect(merged.family == .canon)
        #expect(merged.address.port == 15740)
        // The entry keeps the ID it was found under: SSDP's word updates it.
        #expect(merged.id == "guid-1")
        #expect(changes == [.updated(merged)])
        // The same announcement again changes nothing.
        #expect(list.apply(.seen(key: "ssdp:uuid:1", camera: ssdp, lifetime: .seconds(1800)), at: now).isEmpty)
        // With mDNS gone, the entry is SSDP's alone, under the same ID.
        var ssdpOnly = ssdp
        ssdpOnly.id = "guid-1"
        #expect(list.apply(.gone(key: "mdns:R6"), at: now) == [.updated(ssdpOnly)])
        #expect(list.apply(.gone(key: "ssdp:uuid:1"), at: now) == [.lost(ssdpOnly)])
        #expect(list.apply(.gone(key: "ssdp:uuid:1"), at: now).isEmpty)
    }

    @Test func oneCameraHeardOnTwoNetworksIsOneEntry() {
        var list = DiscoveredCameraList()
        let now = ContinuousClock.now
        let wifi = Self.camera("uuid:1", host: "192.168.1.2", by: .ssdp, model: "Canon EOS R6")
        let wired = Self.camera("uuid:1", host: "10.0.0.2", by: .multicastDNS)
        _ = list.apply(.seen(key: "ssdp:uuid:1", camera: wifi, lifetime: .seconds(60)), at: now)
        _ = list.apply(.seen(key: "mdns:R6", camera: wired, lifetime: .seconds(60)), at: now)
        #expect(list.cameras.count == 1)
        #expect(list.cameras.first?.foundBy == [.ssdp, .multicastDNS])
        #expect(list.cameras.first?.address.host == "192.168.1.2")
    }

    @Test func announcementsRunOutUnlessRenewed() {
        var list = DiscoveredCameraList()
        let now = ContinuousClock.now
        let camera = Self.camera("uuid:1", host: "10.0.0.2", by: .ssdp)
        _ = list.apply(.seen(key: "a", camera: camera, lifetime: .seconds(2)), at: now)
        #expect(list.nextExpiry == now + .seconds(2))
        #expect(list.expire(at: now + .seconds(1)).isEmpty)
        _ = list.apply(.seen(key: "a", camera: camera, lifetime: .seconds(2)), at: now + .seconds(1))
        #expect(list.expire(at: now + .milliseconds(2500)).isEmpty)
        #expect(list.expire(at: now + .seconds(4)) == [.lost(camera)])
        #expect(list.cameras.isEmpty)
    }

    @Test func aFloodOfCamerasIsBounded() {
        var list = DiscoveredCameraList()
        for index in 0..<1000 {
            _ = list.apply(
                .seen(
                    key: "k\(index)", camera: Self.camera("id\(index)", host: "h\(index)", by: .ssdp),
                    lifetime: .seconds(60)),
                at: .now)
        }
        #expect(list.cameras.count == DiscoveredCameraList.maximumAnnouncements)
    }

    /// A searcher the test drives.
    final class HeldSearcher: CameraSearcher {
        let report = Locked<(@Sendable (CameraSearchEvent) -> Void)?>(nil)
        let fails: Bool

        init(fails: Bool = false) {
            self.fails = fails
        }

        func startSearching(report: @escaping @Sendable (CameraSearchEvent) -> Void) throws {
            if fails { throw ViewfinderError(.permissionDenied, "no multicast here") }
            self.report.withLock { $0 = report }
        }

        func stopSearching() {
            report.withLock { $0 = nil }
        }

        func send(_ event: CameraSearchEvent) {
            report.withLock { $0 }?(event)
        }
    }

    @Test func searchingReportsToObserversAndStoppingLosesEverything() async throws {
        let discovery = CameraDiscovery(connectors: [])
        let searcher = HeldSearcher()
        discovery.register(searcher)
        discovery.register(HeldSearcher(fails: true))
        let seen = Locked<[CameraDiscoveryChange]>([])
        let token = discovery.addDiscoveryObserver { change in seen.withLock { $0.append(change) } }
        let lists = Locked<[[DiscoveredCamera]]>([])
        let cancellable = discovery.availableCamerasPublisher().sink { list in lists.withLock { $0.append(list) } }

        discovery.beginSearching()
        #expect(discovery.isSearching)
        #expect(discovery.searchErrors.map(\.message) == ["no multicast here"])
        let camera = Self.camera("uuid:1", host: "10.0.0.2", by: .ssdp)
        searcher.send(.seen(key: "a", camera: camera, lifetime: .milliseconds(300)))
        #expect(discovery.availableCameras == [camera])
        // Not renewed, the announcement runs out.
        try await waitUntil("the camera to be lost") { seen.withLock { $0.count } == 2 }
        #expect(seen.withLock { $0 } == [.discovered(camera), .lost(camera)])

        searcher.send(.seen(key: "a", camera: camera, lifetime: .seconds(60)))
        discovery.stopSearching()
        #expect(!discovery.isSearching)
        #expect(discovery.availableCameras.isEmpty)
        #expect(seen.withLock { $0 }.suffix(2) == [.discovered(camera), .lost(camera)])
        // Nothing is heard after stopping.
        searcher.send(.seen(key: "b", camera: camera, lifetime: .seconds(60)))
        #expect(discovery.availableCameras.isEmpty)
        #expect(lists.withLock { $0 } == [[], [camera], [], [camera], []])
        withExtendedLifetime((token, cancellable)) {}
    }
}
