// Measures Olympus live view through OlympusCamera's live view publisher against olympuswifi's own RTP receiver
// (PyPI, in the test venv) on the same simulated E-M10 Mark II in the same run, and Lumix live view through
// LumixCamera's on the simulated DC-TZ90: frames per second and CPU per frame.
//
// Usage: http-camera-benchmark                (build with -c release; needs the test venv, `make test-deps`)
//        http-camera-benchmark serve [lumix]  (the simulated Olympus, or Lumix, started by the benchmark as its own
//                                             process)

import BenchmarkSupport
import ViewfinderSimulator

#if canImport(Glibc)
import Glibc
#endif

/// Runs the simulated Olympus (or Lumix) on free loopback ports until standard input closes, printing `port N` (the
/// Lumix's `port N M`, commands and content) first.
func serve(lumix: Bool) throws {
    let stop: () -> Void
    if lumix {
        let simulator = LumixSimulator(configuration: .init(port: 0, contentPort: 0, sampleImageCount: 0))
        let (port, contentPort) = try simulator.start()
        print("port \(port) \(contentPort)")
        stop = simulator.stop
    } else {
        let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        print("port \(try simulator.start())")
        stop = simulator.stop
    }
    fflush(nil)
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
    stop()
}

do {
    if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "serve" {
        try serve(lumix: CommandLine.arguments.dropFirst(2).first == "lumix")
    } else {
        let executable = executablePath(orElse: "http-camera-benchmark")
        let met = try await OlympusLiveViewBenchmark.run(executable: executable)
        try await LumixLiveViewBenchmark.run(executable: executable)
        say(met ? "every target met" : "some targets not met")
    }
} catch {
    let message = Array("http-camera-benchmark: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(1)
}
