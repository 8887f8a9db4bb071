import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `shoot`, `record`, `liveview`, `files` and `download` against a simulated Nikon (and Canon): the files they
    /// write are checked as JPEG images and against the camera's own bytes.
    @Suite struct CameraCaptureCommandTests {
        struct FileJSON: Decodable {
            var handle: UInt32
            var name: String
            var folder: String?
            var kind: String
            var bytes: Int?
            var sizeKind: String
        }

        struct LiveViewJSON: Decodable {
            struct Frame: Decodable {
                var path: String
                var width: Int
                var height: Int
            }

            var files: [Frame]
            var framesPerSecond: Double?
        }

        @Test func shootTakesAPictureAndDownloadsIt() async throws {
            try await CameraUnderTest.with { camera in
                let directory = try ScratchDirectory()
                let result = try camera.run("camera", "shoot", "--download", directory.path + "/shots")
                #expect(result.status == 0, "\(result)")
                let lines = result.standardOutput.split(separator: "\n").map(String.init)
                try #require(lines.count == 2, "\(result)")
                #expect(lines[0].hasPrefix("Took DSC_0003.JPG (handle "), "\(result)")
                #expect(lines[1] == "Saved \(directory.path)/shots/DSC_0003.JPG", "\(result)")
                #expect(try directory.files(in: "shots") == ["DSC_0003.JPG"])
                let size = try decodedJPEGSize(try directory.bytes(of: "shots/DSC_0003.JPG"))
                #expect(size == Dimensions(width: 3008, height: 2000), "\(size)")

                let json = try camera.run("camera", "shoot", "--json")
                #expect(json.status == 0, "\(json)")
                struct Report: Decodable {
                    var files: [FileJSON]
                    var saved: [String]
                }
                let report = try decodeJSON(Report.self, from: json)
                #expect(report.files.map(\.name) == ["DSC_0004.JPG"] && report.saved.isEmpty, "\(json)")
            }
        }

        @Test func shootHoldsTheShutterDownForAsLongAsAsked() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                let result = try camera.run("camera", "shoot", "--hold", "1")
                #expect(result.status == 0, "\(result)")
                #expect(result.standardOutput.hasPrefix("Took IMG_"), "\(result)")
                let length = try #require(camera.simulator.lastExposureLength)
                #expect(length >= .seconds(1), "the exposure lasted \(length)")
            }
            try await CameraUnderTest.with { camera in
                // The simulated Nikon holds its shutter open at bulb, as libgphoto2's bulb drives it.
                let bulb = try camera.run("camera", "set", "shutter", "bulb")
                #expect(bulb.status == 0, "\(bulb)")
                let result = try camera.run("camera", "shoot", "--hold", "1")
                #expect(result.status == 0, "\(result)")
                #expect(result.standardOutput.hasPrefix("Took DSC_"), "\(result)")
                let length = try #require(camera.simulator.lastExposureLength)
                #expect(length >= .seconds(1), "the exposure lasted \(length)")
            }
            try await CameraUnderTest.with(identity: .generic) { camera in
                let result = try camera.run("camera", "shoot", "--hold", "1")
                #expect(result.status == 76, "\(result)")
                #expect(result.standardError.contains("cannot hold its shutter button down"), "\(result)")
                #expect(camera.simulator.lastShutterRelease == nil)
            }
        }

        @Test func recordRecordsAMovieForTheTimeGivenAndDownloadsIt() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                let directory = try ScratchDirectory()
                let result = try camera.run("camera", "record", "--seconds", "1", "--download", directory.path)
                #expect(result.status == 0, "\(result)")
                let lines = result.standardOutput.split(separator: "\n").map(String.init)
                try #require(lines.count == 2, "\(result)")
                #expect(lines[0].hasPrefix("Recorded IMG_0003.MOV (handle "), "\(result)")
                #expect(lines[1] == "Saved \(directory.path)/IMG_0003.MOV", "\(result)")
                // About 12 MB a second, as the simulated camera writes it, and the same bytes as on its card.
                let movie = try directory.bytes(of: "IMG_0003.MOV")
                #expect(movie.count > 10_000_000 && movie.count < 30_000_000, "\(movie.count) bytes")

                let json = try camera.run("camera", "record", "--seconds", "0.3", "--json")
                #expect(json.status == 0, "\(json)")
                struct Report: Decodable {
                    var seconds: Double
                    var stoppedBy: String
                    var files: [FileJSON]
                    var saved: [String]
                }
                let report = try decodeJSON(Report.self, from: json)
                #expect(report.stoppedBy == "time" && report.seconds >= 0.3 && report.saved.isEmpty, "\(json)")
                #expect(report.files.map(\.name) == ["IMG_0004.MOV"] && report.files.first?.kind == "video", "\(json)")
            }
        }

        @Test func recordStopsAtCtrlCAndSaysWhyItCannotRecord() async throws {
            try await CameraUnderTest.with { camera in
                let recording = try ChildProcess(
                    Tool.path, ["camera", "record", "--json"] + camera.target, mergingErrors: true)
                // The tool is recording once the simulated camera's movie status says so.
                let started = recording.waitForOutput(timeout: .seconds(30)) { _ in
                    camera.simulator.isRecordingMovie
                }
                #expect(started, "\(recording.standardOutput)")
                recording.interrupt()
                #expect(recording.wait(timeout: .seconds(30)) == 0, "\(recording.standardOutput)")
                #expect(
                    recording.standardOutput.contains("\"stoppedBy\" : \"interrupt\""), "\(recording.standardOutput)")
                #expect(recording.standardOutput.contains("DSC_0003.MOV"), "\(recording.standardOutput)")
                #expect(!camera.simulator.isRecordingMovie)
            }
            // A plain PTP camera records no movies on request.
            try await CameraUnderTest.with(identity: .generic) { camera in
                let refused = try camera.run("camera", "record", "--seconds", "1")
                #expect(refused.status == 76, "\(refused)")
                #expect(refused.standardError.contains("does not record movies on request"), "\(refused)")
            }
        }

        /// On a terminal (a pseudo-terminal from util-linux's `script`), `download` draws a bar redrawn in place.
        @Test func downloadDrawsAProgressBarOnATerminal() async throws {
            try await CameraUnderTest.with { camera in
                let directory = try ScratchDirectory()
                try #require(access("/usr/bin/script", X_OK) == 0, "util-linux's script is missing (bsdutils)")
                let command = ([Tool.path, "camera", "download", "--all", "--out", directory.path] + camera.target)
                    .joined(separator: " ")
                let result = try ChildProcess.run(
                    "/usr/bin/script", ["-qec", command, "/dev/null"], timeout: .seconds(60))
                #expect(result.status == 0, "\(result)")
                #expect(result.standardOutput.contains("\rDSC_0002.JPG [##########"), "\(result)")
                #expect(result.standardOutput.contains("] 100% "), "\(result)")
                #expect(!result.standardOutput.contains("DSC_0002.JPG: 100%"), "a line for a pipe: \(result)")
                #expect(try directory.files() == ["DSC_0001.JPG", "DSC_0002.JPG"])
            }
        }

        @Test func aFileNameThatWouldLeaveTheDirectoryIsNotSaved() async throws {
            try await CameraUnderTest.with { camera in
                let directory = try ScratchDirectory()
                let handle = try camera.simulator.addObject(named: "../escape.JPG", data: [0xFF, 0xD8, 0xFF, 0xD9])
                let result = try camera.run("camera", "download", String(handle), "--out", directory.path + "/inner")
                #expect(result.status == 1, "\(result)")
                #expect(result.standardError.contains("'../escape.JPG', which is not a plain file name"), "\(result)")
                #expect(try directory.files() == ["inner"])
                #expect(try directory.files(in: "inner").isEmpty)
            }
        }

        /// Symbolic links at a file's name and at its partial name, as another user of a shared folder could plant
        /// them, are replaced by the downloaded file; the files they point to keep their bytes.
        @Test func aDownloadDoesNotWriteThroughSymbolicLinks() async throws {
            try await CameraUnderTest.with { camera in
                let directory = try ScratchDirectory()
                let victims = ["victim": Array("precious".utf8), "other-victim": Array("also precious".utf8)]
                for (name, bytes) in victims {
                    #expect(FileManager.default.createFile(atPath: directory.path + "/" + name, contents: Data(bytes)))
                }
                try FileManager.default.createSymbolicLink(
                    atPath: directory.path + "/DSC_0001.JPG", withDestinationPath: directory.path + "/victim")
                try FileManager.default.createSymbolicLink(
                    atPath: directory.path + "/DSC_0002.JPG.partial",
                    withDestinationPath: directory.path + "/other-victim")
                let result = try camera.run("camera", "download", "--all", "--out", directory.path)
                #expect(result.status == 0, "\(result)")
                for (name, bytes) in victims {
                    #expect(try directory.bytes(of: name) == bytes, "\(name) was written through a link")
                }
                #expect(try directory.files() == ["DSC_0001.JPG", "DSC_0002.JPG", "other-victim", "victim"])
                for name in ["DSC_0001.JPG", "DSC_0002.JPG"] {
                    let type = try FileManager.default.attributesOfItem(atPath: directory.path + "/" + name)[.type]
                    #expect(type as? FileAttributeType == .typeRegular, "\(name) is not a file of its own")
                    _ = try decodedJPEGSize(try directory.bytes(of: name))
                }
            }
        }

        @Test func liveviewSavesJPEGFramesAndReportsTheFrameRate() async throws {
            try await CameraUnderTest.with { camera in
                let directory = try ScratchDirectory()
                let result = try camera.run("camera", "liveview", "--frames", "5", "--out", directory.path)
                #expect(result.status == 0, "\(result)")
                let last = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
                #expect(last.hasPrefix("Saved 5 frames to \(directory.path): "), "\(result)")
                #expect(last.contains(" fps achieved over "), "\(result)")
                let files = try directory.files()
                #expect(files == (1...5).map { String(format: "liveview-%04d.jpg", $0) }, "\(files)")
                for file in files {
                    let size = try decodedJPEGSize(try directory.bytes(of: file))
                    #expect(size == Dimensions(width: 640, height: 424), "\(file): \(size)")
                }

                let json = try camera.run(
                    "camera", "liveview", "--frames", "3", "--out", directory.path + "/json", "--json")
                #expect(json.status == 0, "\(json)")
                let report = try decodeJSON(LiveViewJSON.self, from: json)
                #expect(report.files.count == 3, "\(json)")
                #expect((report.framesPerSecond ?? 0) > 0, "\(json)")
                #expect(report.files.allSatisfy { $0.width == 640 && $0.height == 424 }, "\(json)")
            }
        }

        @Test func liveviewStopsOnInterruptWithWhatItSaved() async throws {
            try await CameraUnderTest.with { camera in
                let directory = try ScratchDirectory()
                let liveView = try Tool.start(
                    ["camera", "liveview", "--frames", "100000", "--max-fps", "5", "--out", directory.path]
                        + camera.target, waitingFor: "liveview-0002.jpg")
                liveView.interrupt()
                #expect(liveView.wait(timeout: .seconds(30)) == 130, "stderr: \(liveView.standardError)")
                #expect(liveView.standardError.contains("interrupted after saving "), "\(liveView.standardError)")
                let saved = liveView.standardOutput.split(separator: "\n").count
                #expect(try directory.files().count == saved, "\(liveView.standardOutput)")
            }
        }

        @Test func liveviewOnACameraWithoutItSaysSo() async throws {
            try await CameraUnderTest.with(identity: .generic) { camera in
                let directory = try ScratchDirectory()
                let result = try camera.run("camera", "liveview", "--out", directory.path)
                #expect(result.status == 76, "\(result)")
                #expect(result.standardError.contains("Simulated Camera does not offer live view"), "\(result)")
                #expect(try directory.files().isEmpty)
            }
        }

        @Test func filesListsTheCardAndDownloadSavesTheCamerasBytes() async throws {
            try await CameraUnderTest.with { camera in
                let json = try camera.run("camera", "files", "--json")
                #expect(json.status == 0, "\(json)")
                let files = try decodeJSON([FileJSON].self, from: json)
                #expect(files.map(\.name) == ["DSC_0001.JPG", "DSC_0002.JPG"], "\(json)")
                #expect(files.allSatisfy { $0.folder == "/DCIM/100NIKON" && $0.kind == "jpeg" }, "\(json)")
                #expect(files.allSatisfy { $0.bytes != nil && $0.sizeKind == "bytes" }, "\(json)")

                let table = try camera.run("camera", "files")
                #expect(table.standardOutput.hasPrefix("HANDLE  SIZE"), "\(table)")
                #expect(table.standardOutput.contains("/DCIM/100NIKON/DSC_0002.JPG"), "\(table)")

                let directory = try ScratchDirectory()
                let second = try #require(files.last)
                let one = try camera.run("camera", "download", String(second.handle), "--out", directory.path)
                #expect(one.status == 0, "\(one)")
                #expect(one.standardOutput == "\(directory.path)/DSC_0002.JPG\n", "\(one)")
                // Not a terminal: progress is plain lines on standard error.
                #expect(one.standardError.contains("DSC_0002.JPG: 100%"), "\(one)")
                let saved = try directory.bytes(of: "DSC_0002.JPG")
                #expect(saved == camera.simulator.objectData(second.handle), "the download differs from the card")
                #expect(saved.count == second.bytes)
                _ = try decodedJPEGSize(saved)

                let all = try camera.run("camera", "download", "--all", "--out", directory.path + "/all")
                #expect(all.status == 0, "\(all)")
                #expect(try directory.files(in: "all") == ["DSC_0001.JPG", "DSC_0002.JPG"])

                // A video of 4 GiB or more whose size the camera gives only as "4 GiB or more".
                _ = try camera.simulator.addGeneratedObject(named: "DSC_0003.MOV", byteCount: 5 << 30)
                let withVideo = try decodeJSON([FileJSON].self, from: try camera.run("camera", "files", "--json"))
                let video = try #require(withVideo.first { $0.name == "DSC_0003.MOV" }, "\(withVideo)")
                #expect(video.bytes == nil && video.kind == "video" && video.sizeKind == "4GiBOrMore", "\(video)")
                let listed = try camera.run("camera", "files")
                #expect(
                    listed.standardOutput.split(separator: "\n").contains {
                        $0.contains("4 GB or more") && $0.hasSuffix("/DCIM/100NIKON/DSC_0003.MOV")
                    }, "\(listed)")

                let missing = try camera.run("camera", "download", "999")
                #expect(missing.status == 66, "\(missing)")
                #expect(missing.standardError.contains("the camera has no file with handle 999"), "\(missing)")
            }
        }
    }
}
