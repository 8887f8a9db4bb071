import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// The SSDP searcher against async-upnp-client, an independent UPnP stack, playing a Canon camera in one network
/// namespace (its description over HTTP, answers to M-SEARCH, alive and byebye notifications) while the searcher
/// listens in the other.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SSDPSearchTests {
    static let repository = String(#filePath.dropLast("Tests/ViewfinderDiscoveryTests/SSDPSearchTests.swift".count))
    static let python = repository + ".build-peers/bin/python3"

    @Test func aCanonAnnouncedByAnIndependentUPnPStackIsFoundWithItsModelThenLostOnByebye() async throws {
        guard access(Self.python, X_OK) == 0 else {
            throw TestFailure("\(Self.python) is missing: make test-deps installs the UPnP peer")
        }
        let pair = try await MulticastDNSSearchTests.namespaces()
        do {
            let peer = try ChildProcess(
                "ip",
                [
                    "netns", "exec", pair.camera, Self.python,
                    Self.repository + "Tests/ViewfinderDiscoveryTests/Peers/upnp-camera.py", pair.gateway,
                ],
                mergingErrors: true)
            guard await offThePool({ peer.waitForOutput(timeout: .seconds(60)) { $0.contains("announcing") } }) else {
                throw TestFailure("the UPnP peer did not start:\n\(peer.standardOutput)")
            }
            let discovery = CameraDiscovery(connectors: [])
            discovery.register(SSDPSearcher(configuration: .init(searchInterval: .seconds(1))))
            let changes = Locked<[CameraDiscoveryChange]>([])
            let token = discovery.addDiscoveryObserver { change in changes.withLock { $0.append(change) } }
            try await NetworkNamespacePair.run(in: pair.app) { discovery.beginSearching() }
            #expect(discovery.searchErrors.isEmpty)
            try await waitUntil("the camera to be found") { !discovery.availableCameras.isEmpty }
            let camera = try #require(discovery.availableCameras.first)
            #expect(camera.id == "uuid:00000000-0000-0000-0001-60128B7C39A2")
            #expect(camera.family == .canon)
            #expect(camera.manufacturer == "Canon")
            #expect(camera.model == "Canon EOS R6")
            #expect(camera.name == "Canon EOS R6")
            #expect(camera.serialNumber == "012345678901")
            #expect(camera.address.host == pair.gateway)
            #expect(camera.foundBy == .ssdp)

            try peer.write("stop\n")
            // (That answers the camera sent before it left, arriving late, do not bring it back is checked on the
            // searcher's own: SSDPStrangerTests.onlyASendersOwnDescriptionIsReadAndOnlyItsByebyeCounts.)
            try await waitUntil("the camera to be lost") { discovery.availableCameras.isEmpty }
            #expect(changes.withLock { $0 }.first == .discovered(camera))
            #expect(changes.withLock { $0 }.last == .lost(camera))
            await offThePool { discovery.stopSearching() }
            _ = await peer.finish(timeout: .seconds(30))
            withExtendedLifetime(token) {}
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    @Test func aCameraThatAnswersSearchesOnlyWithAUnicastNotifyIsFound() async throws {
        let ssdpy = Self.repository + ".build-peers/bin/ssdpy-server"
        guard access(ssdpy, X_OK) == 0 else {
            throw TestFailure("\(ssdpy) is missing: make test-deps installs the SSDP peers")
        }
        let pair = try await MulticastDNSSearchTests.namespaces()
        let directory = String(cString: mkdtemp(strdup("/tmp/viewfinder-ssdp.XXXXXX")))
        do {
            let description = String(decoding: SSDPMessageTests.canonDescription, as: UTF8.self)
            guard let file = fopen(directory + "/CameraDevDesc.xml", "w") else { throw TestFailure("no temp file") }
            fputs(description, file)
            fclose(file)
            let web = try ChildProcess(
                "ip",
                [
                    "netns", "exec", pair.camera, "/usr/bin/python3", "-m", "http.server", "49153", "--bind",
                    pair.gateway,
                    "--directory", directory,
                ], mergingErrors: true)
            let service = "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1"
            // ssdpy answers an M-SEARCH for its type with a NOTIFY sent back to the searcher, and announces nothing.
            let peer = try ChildProcess(
                "ip",
                [
                    "netns", "exec", pair.camera, ssdpy, "-t", service, "-l",
                    "http://\(pair.gateway):49153/CameraDevDesc.xml", "--max-age", "120", "-a", pair.gateway,
                    "uuid:00000000-0000-0000-0001-60128B7C39A2::\(service)",
                ], mergingErrors: true)
            let discovery = CameraDiscovery(connectors: [])
            discovery.register(SSDPSearcher(configuration: .init(searchInterval: .seconds(1))))
            try await NetworkNamespacePair.run(in: pair.app) { discovery.beginSearching() }
            try await waitUntil("the camera to be found") { !discovery.availableCameras.isEmpty }
            let camera = try #require(discovery.availableCameras.first)
            #expect(camera.model == "Canon EOS R6")
            #expect(camera.name == "Anna's R6")
            #expect(camera.address.host == pair.gateway)
            await offThePool { discovery.stopSearching() }
            for process in [peer, web] {
                kill(process.pid, SIGKILL)
                _ = await process.finish(timeout: .seconds(10))
            }
        } catch {
            await pair.remove()
            throw error
        }
        _ = try? await ChildProcess.run(["rm", "-rf", directory])
        await pair.remove()
    }
}
