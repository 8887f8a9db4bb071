// Measures Olympus live view through OlympusCamera's live view publisher against olympuswifi's own RTP receiver
// (PyPI, in the test venv) on the same simulated E-M10 Mark II in the same run, and Lumix live view through
// LumixCamera's against gphoto2 --capture-movie (as root) on the simulated DC-TZ90, each beside a bare floor; or
// Sony Camera Remote API live view through SonyRemoteCamera against libsonyapi (PyPI, in the test venv) on the same
// simulated α6000: frames per second and CPU per frame.
//
// Usage: http-camera-benchmark [sony]     (build with -c release; needs the test venv, `make test-deps`)
//        http-camera-benchmark serve      (the simulated Olympus, started by the benchmark as its own process)
//        http-camera-benchmark serve-lumix [ADDRESS] (the simulated Lumix, likewise, on ADDRESS's ports 80 and 60606
//                                         when given; prints `port N M`: commands and content)
//        http-camera-benchmark serve-sony (the simulated Sony, likewise)

import BenchmarkSupport
import ViewfinderSimulator

#if canImport(Glibc)
import Glibc
#endif

/// Prints `port` and the ports of a simulator listening on loopback, and waits until standard input closes.
func serve(ports: UInt16...) {
    print("port " + ports.map(String.init).joined(separator: " "))
    fflush(nil)
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
}

do {
    let mode = CommandLine.arguments.dropFirst().first ?? ""
    switch mode {
    case "serve":
        let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        serve(ports: try simulator.start())
        simulator.stop()
    case "serve-lumix":
        // On an address of its own it takes a Lumix's ports, 80 and 60606, where gphoto2 looks; on loopback free ones.
        let address = CommandLine.arguments.dropFirst(2).first
        let simulator = LumixSimulator(
            configuration: address.map { .init(bindAddress: $0, sampleImageCount: 0) }
                ?? .init(port: 0, contentPort: 0, sampleImageCount: 0))
        let (port, contentPort) = try simulator.start()
        serve(ports: port, contentPort)
        simulator.stop()
    case "serve-sony":
        // Its long poll answers a change or, as a real body's, after a long wait: not once a second, as in tests.
        let simulator = SonyRemoteSimulator(configuration: .init(port: 0, eventTimeout: .seconds(60)))
        serve(ports: try simulator.start())
        simulator.stop()
    case "sony":
        let met = try await SonyRemoteLiveViewBenchmark.run(executable: executablePath(orElse: "http-camera-benchmark"))
        say(met ? "every target met" : "some targets not met")
    default:
        let executable = executablePath(orElse: "http-camera-benchmark")
        let olympus = try await OlympusLiveViewBenchmark.run(executable: executable)
        let lumix = try await LumixLiveViewBenchmark.run(executable: executable)
        say(olympus && lumix ? "every target met" : "some targets not met")
    }
} catch {
    let message = Array("http-camera-benchmark: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(1)
}
