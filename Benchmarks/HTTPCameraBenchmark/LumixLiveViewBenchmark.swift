import BenchmarkSupport
import ViewfinderLumix
import ViewfinderTestSupport

/// The Lumix row: live view of the simulated DC-TZ90 (one JPEG per UDP datagram, 320x240 frames ten times a second)
/// through LumixCamera's live view publisher, with the driver's poll of the camera's state each second.
///
/// gphoto2's Lumix driver, the peer, reaches a camera only on ports 80 and 60606 of an address of its own, so it is
/// measured in a network namespace as root, outside this program (the figures in the commit that added this row).
enum LumixLiveViewBenchmark {
    /// How long Viewfinder's live view is measured, after its first frame.
    static let seconds = 20.0

    /// Measures and prints the figures of the simulated Lumix served by `executable serve-lumix`.
    static func run(executable: String) async throws {
        let server = try ChildProcess(executable, ["serve-lumix"])
        defer {
            server.closeInput()
            _ = server.wait(timeout: .seconds(30))
        }
        guard let line = server.readLine(), line.hasPrefix("port "),
            case let ports = line.dropFirst(5).split(separator: " ").compactMap({ UInt16($0) }), ports.count == 2
        else {
            throw BenchmarkFailure("the simulated Lumix did not start")
        }
        var configuration = LumixCamera.Configuration()
        configuration.port = ports[0]
        configuration.contentPort = ports[1]
        let viewfinder = try await LiveViewMeasurement.measure(
            LumixCamera(host: "127.0.0.1", configuration: configuration), seconds: seconds)
        say("Lumix live view (a JPEG per UDP datagram, 320x240 frames ten times a second) on the simulated DC-TZ90")
        say(
            "  Viewfinder liveViewPublisher:       \(format(viewfinder.fps, 1)) frames/s, "
                + "\(format(viewfinder.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(viewfinder.frames) frames in "
                + "\(format(seconds, 0)) s after its first, this process's CPU alone, its poll included)\n")
    }
}
