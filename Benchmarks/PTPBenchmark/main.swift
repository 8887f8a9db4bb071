// Measures the PTP/IP client against gphoto2 on the same simulated camera in the same run: downloading a 50 MB
// object and fetching Nikon live view frames, with loopback TCP (iperf3) as the ceiling for throughput; listing a
// folder of 2000 files object by object and with the bulk forms (MTP, Canon EOS); the client's memory while a 5 GiB
// movie downloads and a 1 GiB answer is drained; then Canon EOS live view and property sets, then Sony live view and
// an ISO set by notches, then Fujifilm live view over Fujifilm's WiFi protocol.
//
// Usage: ptp-benchmark            (build with -c release; needs gphoto2 and iperf3)
//        ptp-benchmark serve      (the simulated Nikon camera, started by the benchmark as its own process)
//        ptp-benchmark serve IDENTITY (the simulated canon, sony, sony-stepping or fuji camera, likewise)
//        ptp-benchmark profile    (only Viewfinder's live view and small-request loops, 5 s each, for a profiler:
//                                  perf record -g -- ptp-benchmark profile)
//        ptp-benchmark files      (only the listing and memory rows, which need neither gphoto2 nor iperf3)
//        ptp-benchmark fuji       (only the Fujifilm row; `make bench-fuji`)
//        ptp-benchmark sony       (only the Sony rows; `make bench-sony`)

import BenchmarkSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSimulator
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The object both clients download.
enum BenchmarkObject {
    static let size = 50_000_000
    static let name = "DSC_0001.NEF"

    /// Deterministic bytes, so each download can be checked.
    static func bytes() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            for index in 0..<size {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
            count = size
        }
    }
}

/// Runs the simulated camera until standard input closes: a Nikon with the benchmark object, or another identity.
func serve(_ identity: CameraSimulator.Identity) throws {
    let simulator = try CameraSimulator(configuration: .init(identity: identity, port: 0, sampleImageCount: 0))
    try simulator.start()
    if identity != .nikon {
        print("port \(simulator.port)")
    } else {
        let handle = try simulator.addObject(named: BenchmarkObject.name, data: BenchmarkObject.bytes())
        print("port \(simulator.port) handle \(handle)")
    }
    fflush(nil)
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
    simulator.stop()
}

/// Prints a target's verdict.
func verdict(_ name: String, _ met: Bool, _ detail: String) -> Bool {
    say("  \(met ? "met    " : "NOT MET") \(name): \(detail)")
    return met
}

/// Loopback TCP throughput in bytes per second, from iperf3 over three seconds.
func loopbackThroughput() throws -> Double {
    let port = "5\(Int.random(in: 2000...8999))"
    let server = try ChildProcess("iperf3", ["-s", "-1", "-p", port], mergingErrors: true)
    usleep(300_000)
    let client = try runCommand(["iperf3", "-c", "127.0.0.1", "-p", port, "-t", "3", "-f", "m"])
    _ = server.wait(timeout: .seconds(30))
    guard client.status == 0,
        let line = client.output.split(separator: "\n").last(where: { $0.contains("receiver") }),
        let rate = line.split(separator: " ").firstIndex(of: "Mbits/sec").map({ line.split(separator: " ")[$0 - 1] }),
        let megabits = Double(rate)
    else { throw BenchmarkError("iperf3 failed:\n\(client.output)") }
    return megabits * 1e6 / 8
}

do {
    if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "serve" {
        try serve(CommandLine.arguments.dropFirst(2).first.flatMap(CameraSimulator.Identity.init) ?? .nikon)
    } else if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "files" {
        let listed = try await ListingBenchmark.run()
        let held = try await MemoryBenchmark.run()
        say(listed && held ? "every target met" : "some targets not met")
    } else if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "fuji" {
        try await Benchmark.runAlone(executable: executablePath(orElse: "ptp-benchmark"), FujiBenchmark.run)
    } else if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "sony" {
        try await Benchmark.runAlone(executable: executablePath(orElse: "ptp-benchmark"), SonyBenchmark.run)
    } else if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "profile" {
        try await Benchmark.profile(executable: executablePath(orElse: "ptp-benchmark"))
    } else {
        try await Benchmark.run(executable: executablePath(orElse: "ptp-benchmark"))
    }
} catch {
    let message = Array("ptp-benchmark: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(1)
}
