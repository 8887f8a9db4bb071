// Measures the live view publisher of a PTP/IP camera against the simulated Nikon camera, which makes 30 frames a
// second, in a process of its own: frames fetched against frames consumed and the resident memory over time, for
// consumers of 5, 15 and 30 frames a second; then the frame rate and CPU per frame of a consumer that is always
// ready, against a plain loop over the same session operations and decoding, measured in the same run.
//
// Usage: live-view-benchmark        (build with -c release; `make bench-liveview`)
//        live-view-benchmark serve  (the simulated camera, started by the benchmark as its own process)

import BenchmarkSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSimulator

#if canImport(Glibc)
import Glibc
#endif

/// Runs the simulated Nikon camera until standard input closes.
func serve() throws {
    let simulator = try CameraSimulator(configuration: .init(identity: .nikon, port: 0, sampleImageCount: 0))
    try simulator.start()
    say("port \(simulator.port)")
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
    simulator.stop()
}

do {
    if CommandLine.arguments.dropFirst().first == "serve" {
        try serve()
    } else {
        try await LiveViewBenchmark.run(executable: executablePath(orElse: "live-view-benchmark"))
    }
} catch {
    let message = Array("live-view-benchmark: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(1)
}
