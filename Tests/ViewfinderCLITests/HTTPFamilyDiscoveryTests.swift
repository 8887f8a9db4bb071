import Testing
import ViewfinderTestSupport

/// `viewfinder discover` and the camera commands find the cameras that speak HTTP rather than PTP where they are, in
/// a network namespace whose peer has the camera as gateway: a Lumix and a Camera Remote API body by their SSDP
/// announcements, an Olympus (which announces nothing) at the gateway; and what the tool says at a gateway where
/// something other than a camera answers.
@Suite(.serialized, .timeLimit(.minutes(3))) struct HTTPFamilyDiscoveryTests {
    /// Checks that `camera shoot` with `target` saved one picture that decodes.
    static func checkShot(
        _ target: [String], _ inApp: ([String]) async throws -> ChildProcess.Result
    ) async throws {
        let directory = try ScratchDirectory()
        let shot = try await inApp(["camera", "shoot", "--download", directory.path] + target)
        #expect(shot.status == 0, "\(shot.output)")
        let files = try directory.files()
        try #require(files.count == 1, "\(files) \(shot.output)")
        let size = try decodedJPEGSize(try directory.bytes(of: files[0]))
        #expect(size.width > 0 && size.height > 0)
    }

    /// A Lumix whose content directory is on another port than real bodies' 60606: the description its SSDP
    /// LOCATION names, on that port, is where the tool learns it.
    @Test func aLumixAnnouncedOverSSDPIsFoundAndShotByName() async throws {
        let lumix = ["--identity", "lumix", "--content-port", "0", "--announce", "ssdp"]
        try await DiscoverSearchCommandTests.withSimulator(lumix, readyWhen: "over SSDP") { pair, _, inApp in
            let found = try await DiscoverSearchCommandTests.discoverOne(inApp)
            #expect(found.family == "panasonic")
            #expect(found.host == pair.gateway)
            try await Self.checkShot(["--camera", found.name], inApp)
        }
    }

    /// A Camera Remote API body whose description is at a path of its own, which its SSDP LOCATION gives: the tool
    /// reads the description there rather than at the paths real bodies use.
    @Test func aRemoteAPIBodyIsReachedAtTheDescriptionPathItAnnounced() async throws {
        let sony = [
            "--identity", "sony-remote-api", "--port", "0", "--announce", "ssdp", "--description-path",
            "/camera/description.xml",
        ]
        try await DiscoverSearchCommandTests.withSimulator(sony, readyWhen: "description at") { pair, output, inApp in
            #expect(output.contains("/camera/description.xml"), "\(output)")
            let found = try await DiscoverSearchCommandTests.discoverOne(inApp)
            #expect(found.family == "sonyRemoteAPI")
            #expect(found.host == pair.gateway)
            #expect(found.model == "ILCE-6000" || found.name == "ILCE-6000", "\(found)")
            try await Self.checkShot(["--camera", found.name], inApp)

            // At its address alone, the tool asks the usual paths, where this body has no description.
            let port = try #require(found.port)
            let direct = try await inApp(
                ["camera", "info", "--family", "sony-remote", "--host", "\(pair.gateway):\(port)"])
            #expect(direct.status == 69, "\(direct.output)")
        }
    }

    @Test func anOlympusAtTheGatewayIsFoundAndShotWithoutAFamily() async throws {
        let olympus = ["--identity", "olympus", "--sample-images", "1"]
        try await DiscoverSearchCommandTests.withSimulator(olympus, readyWhen: "listening on") { pair, _, inApp in
            let json = try await inApp(["discover", "--gateway", "--json"])
            #expect(json.status == 0, "\(json.output)")
            #expect(json.output.contains("E-M10MarkII") && json.output.contains(pair.gateway), "\(json.output)")
            try await Self.checkShot(["--gateway"], inApp)
        }
    }

    /// At a gateway where nothing answers at the PTP/IP port and something that is neither an Olympus nor a Lumix
    /// answers HTTP at port 80 (here a Camera Remote API body), the failure says what each attempt found.
    @Test func theGatewayFallbackSaysWhatEachAttemptFound() async throws {
        let other = ["--identity", "sony-remote-api", "--port", "80"]
        try await DiscoverSearchCommandTests.withSimulator(other, readyWhen: "description at") { _, _, inApp in
            let result = try await inApp(["discover", "--gateway"])
            #expect(result.status == 69, "\(result.output)")
            let message = result.output
            #expect(message.contains("as a PTP/IP camera: "), "\(message)")
            #expect(message.contains("; as Olympus: "), "\(message)")
            #expect(message.contains("; as Panasonic: "), "\(message)")
            #expect(message.contains("--family"), "\(message)")
        }
    }
}
