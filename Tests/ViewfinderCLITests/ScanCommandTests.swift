import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `scan --image` on files from qrencode and zint, and `scan camera` on a simulated Nikon whose live view shows
    /// a label with a QR code.
    @Suite struct ScanCommandTests {
        struct CodeJSON: Decodable {
            var symbology: String
            var name: String
            var text: String?
            var bytes: String
            var corners: [[Int]]
            var frame: UInt64?
            var file: String?
        }

        /// Writes codes as PNG with qrencode and zint, and the QR code again as JPEG.
        func makeFiles(in directory: ScratchDirectory) throws -> (qr: String, ean: String, jpeg: String) {
            let qr = directory.path + "/qr.png"
            let ean = directory.path + "/ean.png"
            let jpeg = directory.path + "/qr.jpg"
            for command in [
                ["qrencode", "-s", "6", "-o", qr, "scan --image"],
                ["zint", "-b", "13", "-d", "590123412345", "-o", ean],
            ] {
                let result = try ChildProcess.run(command[0], Array(command.dropFirst()), mergingErrors: true)
                try #require(result.status == 0, "\(result)")
            }
            let bytes = try directory.bytes(of: "qr.png")
            let picture = try PNGDecoder().decode(bytes, to: .gray8)
            #expect(FileManager.default.createFile(atPath: jpeg, contents: Data(try JPEGEncoder().encode(picture))))
            return (qr, ean, jpeg)
        }

        @Test func imagesArePrintedWithTheirSymbologyAndText() async throws {
            try await onOwnThread {
                let directory = try ScratchDirectory()
                let files = try makeFiles(in: directory)
                let result = try Tool.run("scan", "--image", files.qr, files.ean, files.jpeg)
                #expect(result.status == 0, "\(result)")
                #expect(
                    result.standardOutput
                        == "\(files.qr): QR\tscan --image\n\(files.ean): EAN-13/UPC-A\t5901234123457\n"
                        + "\(files.jpeg): QR\tscan --image\n", "\(result)")

                let json = try Tool.run("scan", "--image", files.qr, "--json")
                #expect(json.status == 0, "\(json)")
                let code = try JSONDecoder().decode(CodeJSON.self, from: Data(json.standardOutput.utf8))
                #expect(code.symbology == "qr" && code.name == "QR" && code.text == "scan --image")
                #expect(code.bytes == Array("scan --image".utf8).map { String(format: "%02x", $0) }.joined())
                #expect(code.corners.count == 4 && code.file == files.qr && code.frame == nil)
            }
        }

        @Test func imagesWithoutCodesBadFilesAndBadListsFailClearly() async throws {
            try await onOwnThread {
                let directory = try ScratchDirectory()
                let files = try makeFiles(in: directory)
                let cases: [([String], Int32, String)] = [
                    (["scan", "--image", files.ean, "--symbologies", "qr,code128"], 1, "no barcode found in"),
                    (["scan", "--image", directory.path + "/missing.png"], 66, "cannot read"),
                    (["scan", "--image", "/etc/hostname"], 65, "not a JPEG or PNG image"),
                    (["scan", "--image", files.qr, "--symbologies", "qr,bogus"], 64, "no symbology 'bogus'"),
                    (["scan", "--image"], 64, "--image needs at least one FILE"),
                    (["scan", "a", "b"], 64, "several files go with --image"),
                ]
                for (arguments, status, message) in cases {
                    let result = try Tool.run(arguments)
                    #expect(result.status == status, "\(arguments): \(result)")
                    #expect(result.standardError.contains(message), "\(arguments): \(result)")
                }
            }
        }

        @Test func aCameraShowingALabelIsReadThroughItsLiveView() async throws {
            let directory = try ScratchDirectory()
            let label = directory.path + "/label.png"
            let made = try await ChildProcess.run(["qrencode", "-s", "8", "-o", label, "live view label"])
            try #require(made.status == 0, "\(made)")
            let picture = try PNGDecoder().decode(try directory.bytes(of: "label.png"), to: .gray8)
            try await CameraUnderTest.with(liveViewPicture: try PixelConverter().convert(picture, to: .nv12FullRange)) {
                camera in
                let result = try camera.run("scan", "camera", "--count", "1", "--timeout", "30", "--json")
                #expect(result.status == 0, "\(result)")
                let code = try JSONDecoder().decode(CodeJSON.self, from: Data(result.standardOutput.utf8))
                #expect(code.symbology == "qr" && code.text == "live view label", "\(result)")
                #expect(code.frame != nil && code.file == nil)

                let nothing = try camera.run("scan", "camera", "--symbologies", "ean13", "--timeout", "1")
                #expect(nothing.status == 75, "\(nothing)")
                #expect(nothing.standardError.contains("no barcode read from"), "\(nothing)")
            }
        }
    }
}
