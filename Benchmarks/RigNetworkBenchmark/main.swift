// Measures a rig across hosts on MQTT (mosquitto on a bridge of network namespaces, `viewfinder rig agent` in each
// host namespace, the coordinator in this program): the fan-out of a fire command to 50 hosts, the shutter-request
// skew across 16 hosts of 4 cameras against one host with the same cameras and against one gphoto2 process per camera
// started together on every host, and a broker with up to 200 simulated agents.
//
// Usage: rig-network-benchmark                (as root; build with -c release, with the viewfinder product)
//        rig-network-benchmark --scale 100    (the last part with 100 agents instead of 200)
//        rig-network-benchmark measure HUB PREFIX COUNT SCALE
//                                             (the measurements, run by the first inside the bridge's namespace)

import BenchmarkSupport
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "measure", arguments.count == 5, let count = Int(arguments[3]), let scale = Int(arguments[4])
    {
        try await RigNetworkBenchmark(hub: arguments[1], hostPrefix: arguments[2], hostCount: count, scale: scale).run()
    } else {
        var scale = 200
        if let index = arguments.firstIndex(of: "--scale"), index + 1 < arguments.count,
            let value = Int(arguments[index + 1])
        {
            scale = value
        }
        try await RigNetworkBenchmark.setUpAndMeasure(scale: max(scale, 50))
    }
} catch {
    say("rig-network-benchmark failed: \(error)")
    exit(1)
}
