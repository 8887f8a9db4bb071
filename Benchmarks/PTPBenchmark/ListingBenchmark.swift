import BenchmarkSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSimulator
import ViewfinderSystem

/// A folder of 2000 files listed on the simulated camera: one GetObjectInfo per file, against the bulk forms that
/// list the folder in one request, MTP's GetObjectPropList and Canon EOS's GetObjectInfoEx.
enum ListingBenchmark {
    static let files = 2000
    static let runs = 5

    /// One way of listing: the camera it lists and how that camera is set up.
    struct Form {
        var name: String
        var configuration: CameraSimulator.Configuration
    }

    static let forms: [Form] = {
        var objectByObject = CameraSimulator.Configuration(identity: .nikon, port: 0, sampleImageCount: 0)
        var mtp = objectByObject
        mtp.speaksMTP = true
        var canon = CameraSimulator.Configuration(identity: .canon, port: 0, sampleImageCount: 0)
        var canonObjectByObject = canon
        canonObjectByObject.refusedOperations = [.canonEOSGetObjectInfoEx]
        return [
            Form(name: "one GetObjectInfo per file", configuration: objectByObject),
            Form(name: "MTP GetObjectPropList", configuration: mtp),
            Form(name: "Canon, one GetObjectInfo per file", configuration: canonObjectByObject),
            Form(name: "Canon EOS GetObjectInfoEx", configuration: canon),
        ]
    }()

    /// Prints the figures and whether each bulk form takes fewer requests and less time; returns whether both do.
    static func run() async throws -> Bool {
        say("listing a folder of \(files) files on the simulated camera over loopback (median of \(runs) listings)")
        var figures: [(requests: Int, seconds: Double)] = []
        for form in forms {
            let measured = try await measure(form.configuration)
            figures.append(measured)
            say(
                "  \(form.name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(measured.requests) requests, "
                    + "\(format(measured.seconds * 1000, 1)) ms")
        }
        var met = true
        for (bulk, perObject) in [(1, 0), (3, 2)] {
            let speedup = figures[perObject].seconds / figures[bulk].seconds
            met =
                verdict(
                    "\(forms[bulk].name) faster than one request per file",
                    figures[bulk].requests < figures[perObject].requests && speedup > 1,
                    "\(figures[bulk].requests) requests against \(figures[perObject].requests), "
                        + "\(format(speedup, 1))× as fast")
                && met
        }
        say("")
        return met
    }

    /// The requests and the median time of listing the camera folder of a simulator set up as `configuration`.
    static func measure(_ configuration: CameraSimulator.Configuration) async throws -> (
        requests: Int, seconds: Double
    ) {
        let simulator = try CameraSimulator(configuration: configuration)
        try simulator.start()
        defer { simulator.stop() }
        for index in 0..<files {
            _ = try simulator.addObject(named: "FILE\(index).JPG", format: .exifJPEG, data: [0xFF, 0xD8, 0xFF, 0xD9])
        }
        let camera = PTPCamera(
            host: "127.0.0.1", transport: PTPIPTransport.Configuration(port: simulator.port, clientName: "benchmark"))
        try await camera.connect()
        guard let storage = try await camera.storages().first,
            let dcim = try await camera.contents(of: nil, in: storage).first,
            let folder = try await camera.contents(of: dcim, in: storage).first
        else { throw BenchmarkError("the simulated card has no camera folder") }
        var seconds: [Double] = []
        var requests = 0
        for _ in 0..<runs {
            let before = simulator.requestsAnswered()
            let start = ContinuousClock.now
            let items = try await camera.contents(of: folder, in: storage)
            seconds.append(start.duration(to: .now).inSeconds)
            requests = simulator.requestsAnswered() - before
            guard items.count == files else { throw BenchmarkError("the listing has \(items.count) files") }
        }
        try await camera.disconnect()
        return (requests, median(seconds))
    }
}
