import Testing
import ViewfinderCameras
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderAutomation

/// Tethering against the simulated Canon and Nikon over loopback TCP: each picture the camera reports, whether the
/// program or the camera's own button took it, is saved whole as it arrives, and the handler runs for each.
@Suite(.serialized, .timeLimit(.minutes(3))) struct TetheringTests {
    @Test(arguments: [SimulatedCameraSession.canon, SimulatedCameraSession.nikon])
    func everyNewPictureIsSavedAsItArrives(_ configuration: CameraSimulator.Configuration) async throws {
        let directory = try TemporaryDirectory()
        let handled = Locked<[String]>([])
        try await SimulatedCameraSession.run(configuration) { simulator, camera in
            let tethering = Tethering(directory: directory.path, maximumFiles: 3) { file, path in
                handled.withLock { $0.append(path) }
            }
            let events = try await collect(tethering.start(on: camera)) { event in
                guard case .waiting(let number, _) = event else { return }
                switch number {
                case 1:
                    // A picture taken with the camera's own shutter button.
                    try simulator.pressShutterButton()
                case 2 where configuration.identity == .nikon:
                    // A file put on the card, which a Nikon reports as any other.
                    _ = try simulator.addObject(named: "CARD.JPG", format: .exifJPEG, data: [7, 7, 7])
                case 2:
                    try simulator.pressShutterButton()
                case 3:
                    // A picture another program takes.
                    try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                default: break
                }
            }
            let paths = events.savedPaths
            try #require(paths.count == 3, "\(events)")
            #expect(Set(paths).count == 3, "no picture replaced another: \(paths)")
            #expect(handled.withLock { $0 } == paths)
            // Each file is saved whole, as the camera holds it.
            for case .saved(_, let file, let path) in events {
                #expect(try fileBytes(path) == simulator.objectData(file.id), "\(path)")
            }
            let pictures = configuration.identity == .nikon ? [paths[0], paths[2]] : paths
            for path in pictures {
                #expect(JPEGCheck.dimensions(of: try fileBytes(path)) != nil, "\(path) is a JPEG")
            }
            #expect(configuration.identity != .nikon || paths[1].hasSuffix("/CARD.JPG"), "\(paths)")
            #expect(events.summary == AutomationSummary(framesCaptured: 3, filesSaved: 3))
        }
    }

    @Test func aFileOfANameAlreadySavedGetsANumberInstead() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("earlier", to: "IMG_0001.JPG")
        try directory.write("earlier", to: "IMG_0001-2.JPG")
        try directory.write("earlier", to: "README")
        #expect(FrameTaker.unusedPath(in: directory.path, for: "IMG_0001.JPG") == directory.path + "/IMG_0001-3.JPG")
        #expect(FrameTaker.unusedPath(in: directory.path, for: "README") == directory.path + "/README-2")
        #expect(FrameTaker.unusedPath(in: directory.path, for: "NEW.JPG") == directory.path + "/NEW.JPG")
    }

    @Test func aCameraThatGoesAwayEndsTethering() async throws {
        let directory = try TemporaryDirectory()
        try await SimulatedCameraSession.run(SimulatedCameraSession.canon) { simulator, camera in
            let run = Tethering(directory: directory.path).start(on: camera)
            let ended = await #expect(throws: ViewfinderError.self) {
                try await collect(run) { event in
                    if case .waiting = event { await simulator.stopOffThePool() }
                }
            }
            #expect(ended?.code == .disconnected, "\(String(describing: ended))")
        }
    }
}
