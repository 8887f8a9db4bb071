// Measures how a CameraRig's cost grows with the number of cameras: N = 1, 4, 16 and 64 simulated Nikons served by
// a second process of this program, driven by one rig in this process. For each N: connect time, threads and memory
// per camera, shutter skew (the latest shutter opening less the earliest, as the simulated cameras record them), and
// live view CPU per camera-frame at 15 frames/s each; beside it the gphoto2 recipe on the same cameras in the same
// run (one gphoto2 process per camera, started together) for skew and live view CPU.
//
// Usage: rig-benchmark                  (build with -c release; needs gphoto2)
//        rig-benchmark serve N          (N simulated Nikons, started by the benchmark as its own process)
//        rig-benchmark 1 4              (only the rigs of the sizes given)

import BenchmarkSupport
import ViewfinderCore
import ViewfinderSimulator

#if canImport(Glibc)
import Glibc
#endif

/// Runs `count` simulated Nikons until standard input closes, answering the benchmark's requests on it.
///
/// Prints `ports P0 P1 …` once listening. Then, for each line read: `mark` notes the time and answers `ok`; `skew`
/// answers `skew NANOSECONDS fired COUNT` over the shutter openings since the last mark.
func serve(_ count: Int) throws {
    var simulators: [CameraSimulator] = []
    for _ in 0..<count {
        let simulator = try CameraSimulator(
            configuration: .init(identity: .nikon, port: 0, sampleImageCount: 0, batteryDrainInterval: .seconds(3600)))
        try simulator.start()
        simulators.append(simulator)
    }
    say("ports " + simulators.map { String($0.port) }.joined(separator: " "))
    var mark = ContinuousClock.now
    while let line = readLine() {
        switch line {
        case "mark":
            mark = .now
            say("ok")
        case "skew":
            let releases = simulators.compactMap(\.lastShutterRelease).filter { $0 > mark }
            let skew = releases.isEmpty ? .zero : releases.min()!.duration(to: releases.max()!)
            say("skew \(Int(skew.inSeconds * 1e9)) fired \(releases.count)")
        default:
            say("unknown request \(line)")
        }
    }
    for simulator in simulators { simulator.stop() }
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "serve", let count = arguments.dropFirst().first.flatMap({ Int($0) }) {
    try serve(count)
} else {
    let sizes = arguments.compactMap { Int($0) }
    do {
        try await RigBenchmark.run(
            sizes: sizes.isEmpty ? [1, 4, 16, 64] : sizes, executable: executablePath(orElse: CommandLine.arguments[0]))
    } catch {
        say("rig-benchmark failed: \(error)")
        exit(1)
    }
}
