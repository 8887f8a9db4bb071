import Foundation
import Viewfinder
import ViewfinderSimulator
import ViewfinderSystem

/// The main job on the built-in simulated camera, as an app would do it with Viewfinder's public API: discover and
/// connect, read the properties, set ISO and shutter speed, run live view, take a photo and download it.
///
/// The output comes in sections, each headed by one of ``Section``'s titles; the live view frame and the photo are
/// saved into ``output``.
struct CameraDemo {
    /// Where the live view frame and the photo go.
    let output: OutputDirectory
    /// How long live view runs.
    let liveViewDuration: Duration

    /// The parts of the demo, in the order they run.
    enum Section: Int, CaseIterable {
        case simulator = 1
        case connection
        case properties
        case settings
        case liveView
        case photo
        case files

        /// The heading of the section.
        var title: String {
            switch self {
            case .simulator: "Start the simulated camera"
            case .connection: "Discover and connect"
            case .properties: "Properties"
            case .settings: "Set ISO and shutter speed"
            case .liveView: "Live view"
            case .photo: "Take a photo and download it"
            case .files: "Saved files"
            }
        }
    }

    /// A file the demo saved, for the list at the end.
    struct SavedFile {
        /// Where it is.
        var path: String
        /// What it holds, such as "live view frame, 640x424".
        var description: String
    }

    func run() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        Console.print("Viewfinder demo: the main job on the built-in simulated camera, with Viewfinder's public API.")

        Self.begin(.simulator)
        let simulator = try CameraSimulator(configuration: .init(identity: .nikon, port: 0, sampleImageCount: 0))
        try simulator.start()
        Console.print("A simulated Nikon camera listens on 127.0.0.1:\(simulator.port), in this process.")

        let saved: [SavedFile]
        do {
            saved = try await connectAndUse(
                port: simulator.port, liveViewFrameRate: simulator.configuration.liveViewFrameRate)
        } catch {
            await Self.stop(simulator)
            throw error
        }
        await Self.stop(simulator)

        Self.begin(.files)
        let width = saved.map(\.path.count).max() ?? 0
        for file in saved {
            Console.print("  \(file.path.padding(toLength: width, withPad: " ", startingAt: 0))  \(file.description)")
        }
        let elapsed = start.duration(to: clock.now).inSeconds
        Console.print("The demo took \(elapsed.formatted(decimals: 1)) s; open the files with any image viewer.")
    }

    /// Finds the camera on `port`, connects, does the main job, and disconnects.
    private func connectAndUse(port: UInt16, liveViewFrameRate: Int) async throws -> [SavedFile] {
        Self.begin(.connection)
        let descriptor = ManualCameraDescriptor.cameraType(.nikon, atAddress: "127.0.0.1", port: port)
        Console.print("CameraDiscovery.shared.manualDiscovery.discover(\(descriptor))")
        let camera = try await CameraDiscovery.shared.manualDiscovery.discover(descriptor)
        let connection = camera.addConnectionStateObserver { state in Console.print("  connection: \(state)") }
        defer { connection.cancel() }
        let connectStart = ContinuousClock.now
        try await camera.connect()
        Console.print("Connected in \(Self.milliseconds(since: connectStart)).")
        Self.printDeviceInfo(of: camera)

        let saved: [SavedFile]
        do {
            Self.begin(.properties)
            Self.printPropertyTable(of: camera)
            Self.begin(.settings)
            try await Self.changeExposure(of: camera)
            Self.begin(.liveView)
            let frame = try await runLiveView(on: camera, framesPerSecond: liveViewFrameRate)
            let frameFile = try output.write(frame.jpegData, to: "live-view.jpg")
            Console.print("Saved live view frame \(frame.sequenceNumber) as \(frameFile).")
            Self.begin(.photo)
            let photo = try await takePhoto(with: camera)
            saved = [SavedFile(path: frameFile, description: "a live view frame, \(frame.pixelSize)"), photo]
        } catch {
            try? await camera.disconnect()
            throw error
        }
        Console.print("Disconnecting with camera.disconnect()")
        try await camera.disconnect()
        return saved
    }

    /// Prints a section's heading.
    static func begin(_ section: Section) {
        let heading = "── \(section.rawValue)/\(Section.allCases.count) \(section.title) "
        Console.print("\n" + heading + String(repeating: "─", count: max(4, 72 - heading.count)))
    }

    /// Prints who the camera is and what it can do.
    private static func printDeviceInfo(of camera: any Camera) {
        guard let info = camera.deviceInfo else { return }
        let abilities: [(CameraFunctionality, String)] = [
            (.stillCapture, "still capture"), (.liveView, "live view"), (.videoRecording, "video recording"),
            (.fileAccess, "file access"), (.fileDeletion, "file deletion"), (.propertyControl, "property control"),
        ]
        let functionality = camera.supportedFunctionality
        let fields = [
            ("Manufacturer", info.manufacturer), ("Model", info.model), ("Serial number", info.serialNumber),
            ("Version", info.version),
            ("Can do", abilities.filter { functionality.contains($0.0) }.map(\.1).joined(separator: ", ")),
        ]
        let width = fields.map(\.0.count).max() ?? 0
        for (name, value) in fields {
            Console.print("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(value)")
        }
    }

    /// The time since `start` in milliseconds, such as "12 ms" or "0.4 ms".
    static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let milliseconds = start.duration(to: .now).inSeconds * 1000
        return "\(milliseconds.formatted(decimals: milliseconds < 10 ? 1 : 0)) ms"
    }

    /// The first element of `stream`, or `nil` when none comes within `timeout`.
    static func first<Element: Sendable>(of stream: AsyncStream<Element>, within timeout: Duration) async
        -> Element?
    {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            group.addTask { await stream.first { _ in true } }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Stops the simulator on a thread outside Swift's cooperative pool: stopping joins the simulator's threads.
    private static func stop(_ simulator: CameraSimulator) async {
        await offThePool { simulator.stop() }
    }
}

extension Double {
    /// The number with `decimals` digits after the point, such as "29.7".
    func formatted(decimals: Int) -> String {
        String(format: "%.\(decimals)f", self)
    }
}
