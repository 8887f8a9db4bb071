import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// Viewfinder's own announcements, as the simulated camera makes them, seen by independent stacks in the other
/// network namespace: python3-zeroconf's browser for multicast DNS, async-upnp-client's search and description
/// parser for SSDP.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AnnouncementTests {
    static let peers = String(#filePath.dropLast("AnnouncementTests.swift".count)) + "Peers/"

    @Test func zeroconfSeesOurServiceAndItsGoodbye() async throws {
        let pair = try await MulticastDNSSearchTests.namespaces()
        do {
            let browser = try ChildProcess(
                "ip",
                ["netns", "exec", pair.app, "/usr/bin/python3", Self.peers + "zeroconf-browse.py", pair.appAddress],
                mergingErrors: true)
            guard await offThePool({ browser.waitForOutput(timeout: .seconds(60)) { $0.contains("browsing") } }) else {
                throw TestFailure("zeroconf did not browse:\n\(browser.standardOutput)")
            }
            let announcer = try await NetworkNamespacePair.run(in: pair.camera) {
                try MulticastDNSAnnouncer(
                    .init(
                        name: "Simulated Z 6", hostName: "vf-z6", address: pair.gateway, port: 15740,
                        text: ["guid": "nk0000001", "vid": "04b0"]))
            }
            // A whole line: the output may arrive in pieces.
            let found = await offThePool {
                browser.waitForOutput(timeout: .seconds(30)) { output in
                    output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().contains {
                        $0.hasPrefix("found")
                    }
                }
            }
            #expect(found, "\(browser.standardOutput)")
            #expect(
                browser.standardOutput.contains(
                    "found Simulated Z 6._ptp._tcp.local. \(pair.gateway) 15740 guid=nk0000001 vid=04b0"),
                "\(browser.standardOutput)")
            await offThePool { announcer.stop() }
            let lost = await offThePool { browser.waitForOutput(timeout: .seconds(30)) { $0.contains("lost") } }
            #expect(lost, "\(browser.standardOutput)")
            try browser.write("done\n")
            _ = await browser.finish(timeout: .seconds(30))
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    @Test func anIndependentUPnPStackFindsOurDeviceAndReadsItsDescription() async throws {
        guard access(SSDPSearchTests.python, X_OK) == 0 else {
            throw TestFailure("\(SSDPSearchTests.python) is missing: make test-deps installs the UPnP peer")
        }
        let pair = try await MulticastDNSSearchTests.namespaces()
        do {
            let service = "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1"
            let announcer = try await NetworkNamespacePair.run(in: pair.camera) {
                try SSDPAnnouncer(
                    .init(
                        udn: "uuid:00000000-0000-0000-0000-00000000c0de", types: [service], manufacturer: "Canon Inc.",
                        modelName: "Canon EOS 5D Mark IV", friendlyName: "Studio & Co", serialNumber: "CN0000001",
                        address: pair.gateway))
            }
            let result = try await ChildProcess.run(
                NetworkNamespacePair.inside(
                    pair.app, [SSDPSearchTests.python, Self.peers + "upnp-find.py", pair.appAddress, service]),
                timeout: .seconds(60))
            await offThePool { announcer.stop() }
            #expect(
                result.output.contains(
                    "found uuid:00000000-0000-0000-0000-00000000c0de Canon Inc.|Canon EOS 5D Mark IV|Studio & Co \(service)"
                ),
                "\(result.output)")
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }
}
