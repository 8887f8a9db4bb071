// Measures Olympus live view through OlympusCamera's live view publisher against olympuswifi's own RTP receiver
// (PyPI, in the test venv) on the same simulated E-M10 Mark II in the same run: frames per second and CPU per frame.
//
// Usage: http-camera-benchmark          (build with -c release; needs the test venv, `make test-deps`)
//        http-camera-benchmark serve    (the simulated Olympus, started by the benchmark as its own process)

import BenchmarkSupport
import ViewfinderSimulator

#if canImport(Glibc)
import Glibc
#endif

/// Runs the simulated Olympus on a free loopback port until standard input closes, printing `port N` first.
func serve() throws {
    let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
    print("port \(try simulator.start())")
    fflush(nil)
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
    simulator.stop()
}

do {
    if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "serve" {
        try serve()
    } else {
        let met = try await OlympusLiveViewBenchmark.run(
            executable: executablePath(orElse: "http-camera-benchmark"))
        say(met ? "every target met" : "some targets not met")
    }
} catch {
    let message = Array("http-camera-benchmark: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(1)
}
