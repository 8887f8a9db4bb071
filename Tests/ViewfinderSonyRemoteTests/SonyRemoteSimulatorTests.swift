import Foundation
import Testing
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The simulated Sony Camera Remote API camera against libsonyapi, an independent client (PyPI, in the test venv),
/// on loopback.
@Suite(.timeLimit(.minutes(3))) struct SonyRemoteSimulatorTests {
    static let repository = String(
        #filePath.dropLast("Tests/ViewfinderSonyRemoteTests/SonyRemoteSimulatorTests.swift".count))
    static let python = repository + ".build-peers/bin/python3"

    /// A JSON value of the client's report whose shape differs between fields.
    enum Value: Decodable, Equatable {
        case null
        case number(Int)
        case text(String)
        case list([Value])
        case record([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let list = try? container.decode([Value].self) {
                self = .list(list)
            } else {
                self = .record(try container.decode([String: Value].self))
            }
        }
    }

    /// What the client read, as its script prints it.
    struct Report: Decodable {
        struct Frame: Decodable {
            var start: Int
            var type: Int
            var sequence: Int
            var startCode: String
            var size: Int
            var jpeg: String
        }

        var location: String
        var name: String
        var apiVersion: String
        var services: [String: String]
        var apis: [String]
        var isoBefore: String
        var isoAfter: String
        var isoAvailable: [Value]
        var fNumberAfter: String
        var exposureCompensationAfter: Int
        var whiteBalanceAfter: [String: Value]
        var exposureModeAfter: String
        var focusModes: [Value]
        var refused: [String: Value]
        var unknown: [String: Value]
        var notJSON: [String: Value]
        var deep: [String: Value]
        var eventIso: [String: Value]
        var eventShutter: [String: Value]
        var postview: String
        var pictureStart: String
        var pictureSize: Int
        var liveView: String
        var frames: [Frame]
        var status: String
        var schemes: [Value]
        var sources: [Value]
        var contentCount: Int
        var contentNames: [String]
        var originalStart: String
        var oldVersion: [String: Value]
        var tooMany: [String: Value]
        var shootingInTransfer: [String: Value]
        var afterStop: [String: Value]
    }

    @Test func libsonyapiStartsRecModeSetsShootsAndReadsLiveView() async throws {
        let log = Locked<[String]>([])
        let simulator = SonyRemoteSimulator(
            configuration: .init(port: 0, log: { line in log.withLock { $0.append(line) } }))
        let port = try simulator.start()
        let report = try await Self.runClient(stopping: simulator, [String(port)])

        #expect(report.location == "http://127.0.0.1:\(port)/dd.xml")
        // The description's services, and the API list after the client's startRecMode.
        #expect(report.name == "ILCE-6000")
        #expect(report.apiVersion == "1.0")
        #expect(report.services["camera"] == "http://127.0.0.1:\(port)/sony")
        #expect(report.apis.contains("actTakePicture"))
        #expect(report.apis.contains("setIsoSpeedRate"))
        #expect(!report.apis.contains("startRecMode"))
        #expect(log.withLock { $0 }.first { $0 == "startRecMode" } != nil)

        // Settings read, set and read back; values not available, unknown methods and bad JSON refused.
        #expect(report.isoBefore == "AUTO")
        #expect(report.isoAfter == "400")
        #expect(report.isoAvailable.first == .text("400"))
        #expect(report.isoAvailable.last.map { if case .list(let values) = $0 { values.count } else { 0 } } == 8)
        #expect(report.fNumberAfter == "8.0")
        #expect(report.exposureCompensationAfter == -3)
        #expect(report.whiteBalanceAfter["whiteBalanceMode"] == .text("Daylight"))
        #expect(report.exposureModeAfter == "Manual")
        #expect(
            report.focusModes == [.text("AF-S"), .list([.text("AF-S"), .text("AF-C"), .text("DMF"), .text("MF")])])
        #expect(report.refused["error"] == .list([.number(3), .text("Illegal Argument")]))
        #expect(report.refused["id"] == .number(7))
        #expect(report.unknown["error"] == .list([.number(12), .text("No Such Method")]))
        #expect(report.notJSON["error"] == .list([.number(5), .text("Illegal Request")]))
        #expect(report.notJSON["id"] == .null)
        // Nesting 50,000 deep is refused at the reader's depth bound, not followed down the stack.
        #expect(report.deep["error"] == .list([.number(5), .text("Illegal Request")]))
        #expect(log.withLock { $0 }.contains("set IsoSpeedRate 400"))
        #expect(!log.withLock { $0 }.contains("set IsoSpeedRate 123"))

        // The events carry the settings by type; the long poll answers the change made before it.
        #expect(report.eventIso["currentIsoSpeedRate"] == .text("400"))
        #expect(report.eventShutter["currentShutterSpeed"] == .text("1/1000"))

        // The picture at its postview URL.
        #expect(report.postview == "http://127.0.0.1:\(port)/postview/pict1.JPG")
        #expect(report.pictureStart == "ffd8")
        #expect(report.pictureSize > 1000)

        // Live view on its own port: three packets in sequence, headers as pysony reads them, each a whole JPEG.
        #expect(report.liveView.hasSuffix("/liveview/liveviewstream"))
        #expect(!report.liveView.contains(":\(port)/"))
        #expect(report.frames.map(\.sequence) == [0, 1, 2])
        for frame in report.frames {
            #expect(frame.start == 0xFF)
            #expect(frame.type == 1)
            #expect(frame.startCode == "24356879")
            #expect(frame.size > 100)
            #expect(frame.jpeg.hasPrefix("ffd8") && frame.jpeg.hasSuffix("ffd9"))
        }

        // The card through the avContent service once the camera serves it: the three stills there at start and
        // the picture taken; the versions the calls take, and pages of at most 100.
        #expect(report.status == "ContentsTransfer")
        #expect(report.schemes == [.list([.record(["scheme": .text("storage")])])])
        #expect(report.sources == [.list([.record(["source": .text("storage:memoryCard1")])])])
        #expect(report.contentCount == 4)
        #expect(report.contentNames == ["DSC00001.JPG", "DSC00002.JPG", "DSC00003.JPG", "pict1.JPG"])
        #expect(report.originalStart == "ffd8")
        #expect(report.oldVersion["error"] == .list([.number(14), .text("Unsupported Version")]))
        #expect(report.tooMany["error"] == .list([.number(3), .text("Illegal Argument")]))
        #expect(report.shootingInTransfer["error"] == .list([.number(1), .text("Not Available Now")]))

        // Out of recording mode, a shooting call is not available.
        #expect(report.afterStop["error"] == .list([.number(1), .text("Not Available Now")]))
    }

    /// A getEvent long poll waits for a change and answers it as soon as a call on another connection makes it.
    @Test func aLongPollAnswersAChangeMadeOnAnotherConnection() async throws {
        let simulator = SonyRemoteSimulator(configuration: .init(port: 0, eventTimeout: .seconds(120)))
        let port = try simulator.start()
        let poller: ChildProcess
        do {
            poller = try ChildProcess(
                Self.python,
                [Self.repository + "Tests/ViewfinderSonyRemoteTests/Peers/libsonyapi-longpoll.py", String(port)])
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        do {
            try await waitUntil("the long poll to wait", limit: .seconds(60)) { simulator.longPollsWaiting == 1 }
            let set = try await ChildProcess.run([
                Self.python, "-c",
                "import requests; print(requests.post('http://127.0.0.1:\(port)/sony/camera', "
                    + "'{\"method\": \"setShutterSpeed\", \"params\": [\"1/1000\"], \"id\": 2, \"version\": \"1.0\"}', "
                    + "timeout=10).text)",
            ])
            #expect(set.standardOutput.contains("\"result\":[0]"))
        } catch {
            _ = await poller.finish(timeout: .zero)
            await offThePool { simulator.stop() }
            throw error
        }
        // Well before the poll's own two minutes: the change ends it.
        let result = await poller.finish(timeout: .seconds(30))
        await offThePool { simulator.stop() }
        try #require(result.status == 0, "\(result)")
        let line = try #require(result.standardOutput.split(separator: "\n").last { $0.hasPrefix("{") })
        let shutter = try JSONDecoder().decode([String: Value].self, from: Data(line.utf8))
        #expect(shutter["currentShutterSpeed"] == .text("1/1000"))
        #expect(simulator.longPollsWaiting == 0)
    }

    /// The simulated camera announced over SSDP in a network namespace of its own, as on its WiFi network, found by
    /// libsonyapi's own search from the other namespace and driven there.
    @Test func libsonyapiFindsTheCameraBySSDPAcrossItsNetwork() async throws {
        guard getuid() == 0 else {
            try Test.cancel("network namespaces need root (as in CI): libsonyapi's SSDP search is not checked here")
        }
        let pair: NetworkNamespacePair
        do {
            pair = try await NetworkNamespacePair.make()
        } catch {
            try Test.cancel("network namespaces cannot be made here, so libsonyapi's search is not checked: \(error)")
        }
        do {
            var configuration = SonyRemoteSimulator.Configuration(bindAddress: pair.gateway, port: 0)
            configuration.announces = true
            let simulator = SonyRemoteSimulator(configuration: configuration)
            let port = try await NetworkNamespacePair.run(in: pair.camera) { try simulator.start() }
            let report = try await Self.runClient(stopping: simulator, [], in: pair.app)

            #expect(report.location.hasPrefix("http://\(pair.gateway):"))
            #expect(report.location.hasSuffix("/dd.xml"))
            #expect(report.name == "ILCE-6000")
            #expect(report.services["camera"] == "http://\(pair.gateway):\(port)/sony")
            #expect(report.isoAfter == "400")
            #expect(report.postview.hasPrefix("http://\(pair.gateway):\(port)/postview/"))
            #expect(report.frames.map(\.sequence) == [0, 1, 2])
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    /// Runs the client script with `arguments` (in `namespace`, if given), stops `simulator` and decodes the report
    /// the script printed.
    static func runClient(
        stopping simulator: SonyRemoteSimulator, _ arguments: [String], in namespace: String? = nil
    ) async throws -> Report {
        guard access(python, X_OK) == 0 else {
            await offThePool { simulator.stop() }
            throw TestFailure("\(python) is missing: make test-deps installs libsonyapi")
        }
        let command = [python, repository + "Tests/ViewfinderSonyRemoteTests/Peers/libsonyapi-client.py"] + arguments
        let result: ChildProcess.Result
        do {
            result = try await ChildProcess.run(namespace.map { NetworkNamespacePair.inside($0, command) } ?? command)
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
        try #require(result.status == 0, "\(result)")
        let line = try #require(result.standardOutput.split(separator: "\n").last { $0.hasPrefix("{") })
        return try JSONDecoder().decode(Report.self, from: Data(line.utf8))
    }
}
