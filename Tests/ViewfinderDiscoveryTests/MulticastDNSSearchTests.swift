import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// The multicast DNS searcher against independent mDNS stacks, across a veth pair between two network namespaces
/// the test makes (mDNS stacks ignore loopback): python3-zeroconf registering and unregistering a camera's
/// `_ptp._tcp` service, and avahi-daemon publishing one from a static service file.
@Suite(.serialized, .timeLimit(.minutes(3))) struct MulticastDNSSearchTests {
    static let peers = String(#filePath.dropLast("MulticastDNSSearchTests.swift".count)) + "Peers/"

    /// Makes the namespaces, or cancels the test where they cannot be made.
    static func namespaces() async throws -> NetworkNamespacePair {
        guard getuid() == 0 else {
            try Test.cancel("network namespaces need root (as in CI): multicast discovery is not checked here")
        }
        do {
            return try await NetworkNamespacePair.make()
        } catch {
            try Test.cancel("network namespaces cannot be made here, so multicast discovery is not checked: \(error)")
        }
    }

    /// python3-zeroconf registering a camera called `name` at `address` in the camera's namespace, once it says so;
    /// a line on its standard input unregisters it.
    static func zeroconfCamera(in pair: NetworkNamespacePair, _ address: String, _ name: String) async throws
        -> ChildProcess
    {
        let peer = try ChildProcess(
            "ip",
            ["netns", "exec", pair.camera, "/usr/bin/python3", peers + "zeroconf-register.py", address, name],
            mergingErrors: true)
        guard await offThePool({ peer.waitForOutput(timeout: .seconds(60)) { $0.contains("registered") } }) else {
            throw TestFailure("zeroconf did not register:\n\(peer.standardOutput)")
        }
        return peer
    }

    /// A discovery with only the multicast DNS searcher, searching from inside the app's namespace.
    ///
    /// `prepare` runs before searching begins, so an observer it adds hears every change: a camera may be found
    /// as soon as the first query goes out.
    static func discovery(
        in pair: NetworkNamespacePair, lifetime: Duration = .seconds(150),
        prepare: (CameraDiscovery) -> Void = { _ in }
    ) async throws -> CameraDiscovery {
        let discovery = CameraDiscovery(connectors: [])
        discovery.register(
            MulticastDNSSearcher(configuration: .init(queryInterval: .seconds(1), lifetime: lifetime)))
        prepare(discovery)
        try await NetworkNamespacePair.run(in: pair.app) { discovery.beginSearching() }
        guard discovery.searchErrors.isEmpty else {
            throw TestFailure("the searcher could not listen: \(discovery.searchErrors)")
        }
        return discovery
    }

    @Test func aCameraZeroconfRegistersIsFoundThenLostWhenItUnregisters() async throws {
        let pair = try await Self.namespaces()
        let changes = Locked<[CameraDiscoveryChange]>([])
        do {
            let peer = try await Self.zeroconfCamera(in: pair, pair.gateway, "Nikon Z 6 (Study)")
            var token: ObservationToken?
            // zeroconf sends an answer to a query after a random delay from a queue that unregistering leaves as it
            // is, so an answer to the once-a-second query can follow the goodbye and announce the camera again for
            // its lifetime: a short one ends that too.
            let discovery = try await Self.discovery(in: pair, lifetime: .seconds(10)) { discovery in
                token = discovery.addDiscoveryObserver { change in changes.withLock { $0.append(change) } }
            }
            try await waitUntil("the camera to be found") { !discovery.availableCameras.isEmpty }
            let camera = try #require(discovery.availableCameras.first)
            #expect(camera.name == "Nikon Z 6 (Study)")
            #expect(camera.family == .nikon)
            #expect(camera.manufacturer == "Nikon")
            #expect(camera.address.host == pair.gateway)
            #expect(camera.address.port == 15740)
            #expect(camera.id == "guid:0123456789abcdef")
            #expect(camera.foundBy == .multicastDNS)

            try peer.write("unregister\n")
            try await waitUntil("the camera to be lost", limit: .seconds(60)) { discovery.availableCameras.isEmpty }
            // Observers hear of a change after the list shows it, outside the discovery's lock.
            try await waitUntil("the loss to be reported") { changes.withLock { $0.count } >= 2 }
            #expect(Array(changes.withLock { $0 }.prefix(2)) == [.discovered(camera), .lost(camera)])
            await offThePool { discovery.stopSearching() }
            _ = await peer.finish(timeout: .seconds(30))
            withExtendedLifetime(token) {}
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    @Test func aCameraAnnouncedOnlyOverIPv6IsFoundAtItsIPv6Address() async throws {
        let pair = try await Self.namespaces()
        do {
            let peer = try await Self.zeroconfCamera(in: pair, pair.gatewayIPv6, "Z 6 over IPv6")
            // A goodbye missed under load still ends in a loss: the announcement lasts three seconds unless renewed.
            let discovery = try await Self.discovery(in: pair, lifetime: .seconds(3))
            try await waitUntil("the camera to be found") { !discovery.availableCameras.isEmpty }
            let camera = try #require(discovery.availableCameras.first)
            #expect(camera.name == "Z 6 over IPv6")
            #expect(camera.address.host == pair.gatewayIPv6)
            #expect(camera.address.port == 15740)
            try peer.write("unregister\n")
            try await waitUntil("the camera to be lost") { discovery.availableCameras.isEmpty }
            await offThePool { discovery.stopSearching() }
            _ = await peer.finish(timeout: .seconds(30))
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    @Test func aNetworkJoinedAfterSearchingBeganIsSearchedToo() async throws {
        let pair = try await Self.namespaces()
        do {
            let peer = try await Self.zeroconfCamera(in: pair, pair.gateway, "Late Z 6")
            // Searching begins with the app's only network down, as before the camera's WiFi is joined.
            _ = try await ChildProcess.run(["ip", "-n", pair.app, "link", "set", pair.appInterface, "down"])
            let discovery = CameraDiscovery(connectors: [])
            discovery.register(MulticastDNSSearcher())
            try await NetworkNamespacePair.run(in: pair.app) { discovery.beginSearching() }
            #expect(discovery.searchErrors.isEmpty)
            _ = try await ChildProcess.run(["ip", "-n", pair.app, "link", "set", pair.appInterface, "up"])
            try await waitUntil("the camera on the new network to be found") { !discovery.availableCameras.isEmpty }
            #expect(discovery.availableCameras.map(\.name) == ["Late Z 6"])
            await offThePool { discovery.stopSearching() }
            try peer.write("unregister\n")
            _ = await peer.finish(timeout: .seconds(30))
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    @Test func aServiceAvahiPublishesFromAStaticFileIsFoundThenLostWhenAvahiStops() async throws {
        let pair = try await Self.namespaces()
        do {
            let avahi = try await offThePool {
                try AvahiDaemon(
                    in: pair.camera, interface: pair.cameraInterface,
                    services: [
                        .init(
                            name: "Nikon D850 (Avahi)", port: 15741,
                            text: ["guid=00112233445566778899AABBCCDDEEFF", "vid=04b0"])
                    ])
            }
            let discovery = try await Self.discovery(in: pair)
            try await waitUntil("the camera to be found") { !discovery.availableCameras.isEmpty }
            let camera = try #require(discovery.availableCameras.first)
            #expect(camera.name == "Nikon D850 (Avahi)")
            #expect(camera.family == .nikon)
            #expect(camera.address.host == pair.gateway)
            #expect(camera.address.port == 15741)
            #expect(camera.id == "guid:00112233445566778899aabbccddeeff")
            // Stopping, avahi sends the service's goodbye.
            await offThePool { avahi.stop() }
            try await waitUntil("the camera to be lost") { discovery.availableCameras.isEmpty }
            await offThePool { discovery.stopSearching() }
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    @Test func aCameraThatStopsAnsweringIsLostAndFoundAgainWhenItReturns() async throws {
        let pair = try await Self.namespaces()
        do {
            var peer = try await Self.zeroconfCamera(in: pair, pair.gateway, "Z 6")
            let discovery = try await Self.discovery(in: pair, lifetime: .seconds(3))
            try await waitUntil("the camera to be found") { !discovery.availableCameras.isEmpty }
            // Killed, it sends no goodbye: its answers stop, and the announcement runs out.
            kill(peer.pid, SIGKILL)
            _ = await peer.finish(timeout: .seconds(30))
            try await waitUntil("the silent camera to be lost") { discovery.availableCameras.isEmpty }
            peer = try await Self.zeroconfCamera(in: pair, pair.gateway, "Z 6")
            try await waitUntil("the camera to be found again") { !discovery.availableCameras.isEmpty }
            #expect(discovery.availableCameras.map(\.name) == ["Z 6"])
            await offThePool { discovery.stopSearching() }
            try peer.write("unregister\n")
            _ = await peer.finish(timeout: .seconds(30))
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }
}
