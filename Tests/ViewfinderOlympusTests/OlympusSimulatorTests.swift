import Foundation
import Testing
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The simulated Olympus against olympuswifi, an independent client (PyPI, in the test venv), on loopback.
@Suite(.timeLimit(.minutes(3))) struct OlympusSimulatorTests {
    static let repository = String(
        #filePath.dropLast("Tests/ViewfinderOlympusTests/OlympusSimulatorTests.swift".count))
    static let python = repository + ".build-peers/bin/python3"

    /// What the client read, as its script prints it.
    struct Report: Decodable {
        var model: String
        var versions: [String: String]
        var connectmode: [String: String]
        var settable: [String: [String]]
        var isoBefore: String
        var isoAfter: String
        var wbAfter: String
        var refused: String?
        var wrongMode: Int?
        var takeready: Int
        var starttake: Int
        var stoptake: Int
        var images: [[Value]]
        var downloads: [Int]
        var thumbnail: String

        /// A field of a listed image: its path, size or date.
        enum Value: Decodable, Equatable {
            case text(String)
            case number(Int)

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Int.self) {
                    self = .number(number)
                } else {
                    self = .text(try container.decode(String.self))
                }
            }
        }
    }

    @Test func olympuswifiConnectsSetsShootsListsAndDownloads() async throws {
        guard access(Self.python, X_OK) == 0 else {
            throw TestFailure("\(Self.python) is missing: make test-deps installs olympuswifi")
        }
        let log = Locked<[String]>([])
        let simulator = try OlympusSimulator(
            configuration: .init(port: 0, log: { line in log.withLock { $0.append(line) } }))
        let port = try simulator.start()
        let directory = try TemporaryDirectory()
        let result: ChildProcess.Result
        do {
            result = try await ChildProcess.run([
                Self.python, Self.repository + "Tests/ViewfinderOlympusTests/Peers/olympuswifi-client.py", String(port),
                directory.path,
            ])
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
        try #require(result.status == 0, "\(result)")
        let line = try #require(result.standardOutput.split(separator: "\n").last { $0.hasPrefix("{") })
        let report = try JSONDecoder().decode(Report.self, from: Data(line.utf8))

        #expect(report.model == "E-M10MarkII")
        #expect(report.versions["version"] == "4.20")
        #expect(report.connectmode == ["connectmode": "OPC"])
        #expect(report.settable["isospeedvalue"]?.contains("400") == true)
        #expect(report.settable["expcomp"]?.contains("-0.7") == true)
        #expect(
            report.settable.keys.sorted() == [
                "drivemode", "expcomp", "focalvalue", "isospeedvalue", "shutspeedvalue", "takemode", "wbvalue",
            ])
        #expect(report.isoBefore == "Auto")
        #expect(report.isoAfter == "400")
        #expect(report.wbAfter == "18")
        #expect(report.refused?.contains("not supported") == true)
        #expect(report.wrongMode == 520)
        #expect([report.takeready, report.starttake, report.stoptake] == [Int](repeating: 200, count: 3))
        let motion = log.withLock { $0.filter { ["focused", "recording started", "recording stopped"].contains($0) } }
        #expect(motion == ["focused", "recording started", "recording stopped"])
        #expect(log.withLock { $0 }.contains("set isospeedvalue 400"))
        #expect(log.withLock { $0 }.contains("set wbvalue 18"))
        #expect(log.withLock { $0 }.contains("new picture PC060003.JPG"))

        // The two pictures at start and the one taken, each downloaded whole as a JPEG.
        #expect(
            report.images.map { $0.first }
                == ["PC060001", "PC060002", "PC060003"].map {
                    .text("/DCIM/100OLYMP/\($0).JPG")
                })
        #expect(report.images.allSatisfy { $0.last == .text("2026-12-06T12:00:00") })
        #expect(
            report.downloads
                == report.images.compactMap {
                    if case .number(let size) = $0[1] { size } else { nil }
                })
        for name in ["PC060001.JPG", "PC060003.JPG"] {
            let bytes = try #require(FileManager.default.contents(atPath: directory.path + "/" + name))
            #expect(bytes.prefix(2) == Data([0xFF, 0xD8]))
        }
        #expect(report.thumbnail == "ffd8")
    }
}
