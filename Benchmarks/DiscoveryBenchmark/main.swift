// Measures how long automatic discovery takes to find a camera, against avahi-browse in the same run: avahi-daemon
// publishes a camera's _ptp._tcp service in one network namespace; in the other, Viewfinder's multicast DNS
// searcher from beginSearching() to the first camera, and avahi-browse -t -r _ptp._tcp (against a fresh avahi
// daemon of its own) to its first resolved service. Both start cold, with nothing cached.
//
// Usage: discovery-benchmark   (build with -c release; needs root, iproute2, avahi-daemon, avahi-utils, dbus)

import BenchmarkSupport
import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

let rounds = 7

/// Seconds from beginSearching() to the first camera, with a fresh discovery.
func viewfinderRound(in pair: NetworkNamespacePair) async throws -> Double {
    let discovery = CameraDiscovery(connectors: [])
    discovery.register(MulticastDNSSearcher())
    let start = ContinuousClock.now
    try await NetworkNamespacePair.run(in: pair.app) { discovery.beginSearching() }
    while discovery.availableCameras.isEmpty {
        guard start.duration(to: .now) < .seconds(10) else { throw TestFailure("Viewfinder found no camera") }
        try await Task.sleep(for: .milliseconds(1))
    }
    let seconds = start.duration(to: .now).inSeconds
    discovery.stopSearching()
    return seconds
}

/// Seconds from starting avahi-browse to its first resolved service, against a fresh daemon in the app namespace.
func avahiRound(in pair: NetworkNamespacePair) throws -> Double {
    let daemon = try AvahiDaemon(
        in: pair.app, interface: pair.appInterface, hostName: "avahi-app", services: [], withBus: true)
    defer { daemon.stop() }
    let browse = daemon.command(["avahi-browse", "--terminate", "--resolve", "--parsable", "_ptp._tcp"])
    let start = ContinuousClock.now
    let process = try ChildProcess(browse[0], Array(browse.dropFirst()), mergingErrors: true)
    guard
        process.waitForOutput(
            timeout: .seconds(10), until: { $0.split(separator: "\n").contains { $0.hasPrefix("=") } })
    else { throw TestFailure("avahi-browse found no camera:\n\(process.standardOutput)") }
    let seconds = start.duration(to: .now).inSeconds
    _ = process.wait(timeout: .seconds(10))
    return seconds
}

do {
    guard getuid() == 0 else { throw TestFailure("the discovery benchmark makes network namespaces: run it as root") }
    let pair = try await NetworkNamespacePair.make()
    defer { Task { await pair.remove() } }
    let camera = try AvahiDaemon(
        in: pair.camera, interface: pair.cameraInterface,
        services: [.init(name: "Nikon D850", port: 15740, text: ["guid=00112233445566778899aabbccddeeff", "vid=04b0"])])
    defer { camera.stop() }
    say("time to the first camera: avahi-daemon publishes a _ptp._tcp service across a veth pair; median of \(rounds)")
    var ours: [Double] = []
    var avahi: [Double] = []
    for _ in 0..<rounds {
        ours.append(try await viewfinderRound(in: pair))
        avahi.append(try avahiRound(in: pair))
    }
    let (viewfinder, browse) = (median(ours), median(avahi))
    say(
        "  Viewfinder beginSearching() → first camera: \(format(viewfinder * 1000, 0)) ms (\(ours.map { format($0 * 1000, 0) }.joined(separator: ", ")))"
    )
    say(
        "  avahi-browse -t -r → first resolved:         \(format(browse * 1000, 0)) ms (\(avahi.map { format($0 * 1000, 0) }.joined(separator: ", ")))"
    )
    say("targets")
    let faster = viewfinder < browse
    let quick = viewfinder <= 1
    say("  \(faster ? "met    " : "NOT MET") faster than avahi-browse: \(format(browse / viewfinder, 2))× as fast")
    say("  \(quick ? "met    " : "NOT MET") first camera within 1 s: \(format(viewfinder * 1000, 0)) ms")
    say(faster && quick ? "\nevery target met" : "\nsome targets not met")
    camera.stop()
    await pair.remove()
} catch {
    let message = Array("discovery-benchmark: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(1)
}
