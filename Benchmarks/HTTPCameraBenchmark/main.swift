// Measures Olympus live view through OlympusCamera's live view publisher against olympuswifi's own RTP receiver
// (PyPI, in the test venv) on the same simulated E-M10 Mark II in the same run, or Sony Camera Remote API live view
// through SonyRemoteCamera against libsonyapi (PyPI, in the test venv) on the same simulated α6000: frames per second
// and CPU per frame.
//
// Usage: http-camera-benchmark [sony]     (build with -c release; needs the test venv, `make test-deps`)
//        http-camera-benchmark serve      (the simulated Olympus, started by the benchmark as its own process)
//        http-camera-benchmark serve-sony (the simulated Sony, likewise)

import BenchmarkSupport
import ViewfinderSimulator

#if canImport(Glibc)
import Glibc
#endif

/// Prints `port N` for a simulator listening on `port`, and waits until standard input closes.
func serve(port: UInt16) {
    print("port \(port)")
    fflush(nil)
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
}

do {
    let mode = CommandLine.arguments.dropFirst().first ?? ""
    switch mode {
    case "serve":
        let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        serve(port: try simulator.start())
        simulator.stop()
    case "serve-sony":
        // Its long poll answers a change or, as a real body's, after a long wait: not once a second, as in tests.
        let simulator = SonyRemoteSimulator(configuration: .init(port: 0, eventTimeout: .seconds(60)))
        serve(port: try simulator.start())
        simulator.stop()
    default:
        let executable = executablePath(orElse: "http-camera-benchmark")
        let met =
            mode == "sony"
            ? try await SonyRemoteLiveViewBenchmark.run(executable: executable)
            : try await OlympusLiveViewBenchmark.run(executable: executable)
        say(met ? "every target met" : "some targets not met")
    }
} catch {
    let message = Array("http-camera-benchmark: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(1)
}
