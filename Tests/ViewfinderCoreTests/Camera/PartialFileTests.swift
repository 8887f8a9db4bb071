import Foundation
import Testing
import ViewfinderCore

/// How a download's file is made: a new partial file that never writes through what is already at a name.
@Suite struct PartialFileTests {
    /// A directory under the system's temporary directory, removed with everything in it when released.
    final class Directory {
        let path = NSTemporaryDirectory() + "/viewfinder-partial-\(UUID().uuidString)"

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        func write(_ text: String, to name: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        }

        func read(_ name: String) throws -> String {
            try String(contentsOfFile: path + "/" + name, encoding: .utf8)
        }

        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(
                atPath: path + "/" + name, withDestinationPath: path + "/" + target)
        }

        func isRegularFile(_ name: String) throws -> Bool {
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + name)
            return attributes[.type] as? FileAttributeType == .typeRegular
        }

        func exists(_ name: String) -> Bool {
            (try? FileManager.default.attributesOfItem(atPath: path + "/" + name)) != nil
        }
    }

    /// Symbolic links planted at the file's name and at its partial name (say, by another user of a shared folder)
    /// are replaced; the files they point to keep their bytes.
    @Test func symbolicLinksAtEitherNameAreReplacedNotWrittenThrough() throws {
        let directory = try Directory()
        try directory.write("precious", to: "victim")
        try directory.write("also precious", to: "other-victim")
        try directory.link("DSC_0001.JPG", to: "victim")
        try directory.link("DSC_0001.JPG.partial", to: "other-victim")
        let file = try PartialFile(completing: directory.path + "/DSC_0001.JPG")
        try file.write(Array("picture".utf8))
        try file.complete()
        #expect(try directory.read("victim") == "precious")
        #expect(try directory.read("other-victim") == "also precious")
        #expect(try directory.isRegularFile("DSC_0001.JPG"))
        #expect(try directory.read("DSC_0001.JPG") == "picture")
        #expect(!directory.exists("DSC_0001.JPG.partial"))
    }

    /// A partial file left by a download that was killed is made anew; one that a running download writes is left
    /// to it, and the second download is told why it cannot start.
    @Test func aLeftOverPartialFileIsReplacedAndALiveOneIsLeftAlone() throws {
        let directory = try Directory()
        try directory.write("half a picture from a killed run", to: "DSC_0002.JPG.partial")
        let first = try PartialFile(completing: directory.path + "/DSC_0002.JPG")
        try first.write(Array("new".utf8))
        #expect(try directory.read("DSC_0002.JPG.partial") == "new")

        let error = #expect(throws: ViewfinderError.self) {
            try PartialFile(completing: directory.path + "/DSC_0002.JPG")
        }
        #expect(error?.code == .deviceBusy && error?.message.contains("another download is writing") == true)
        try first.complete()
        #expect(try directory.read("DSC_0002.JPG") == "new")

        let discarded = try PartialFile(completing: directory.path + "/DSC_0003.JPG")
        try discarded.write(Array("gone".utf8))
        discarded.discard()
        #expect(!directory.exists("DSC_0003.JPG.partial") && !directory.exists("DSC_0003.JPG"))
    }
}
