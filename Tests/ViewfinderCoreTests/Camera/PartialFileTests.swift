import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// How a download's file is made: a new partial file that never writes through what is already at a name.
@Suite struct PartialFileTests {
    /// The partial file for `name` in `directory`.
    static func partial(_ name: String, in directory: TemporaryDirectory) throws -> PartialFile {
        try PartialFile(completing: directory.path + "/" + name)
    }

    /// Symbolic links planted at the file's name and at its partial name (say, by another user of a shared folder)
    /// are replaced; the files they point to keep their bytes.
    @Test func symbolicLinksAtEitherNameAreReplacedNotWrittenThrough() throws {
        let directory = try TemporaryDirectory()
        try directory.write("precious", to: "victim")
        try directory.write("also precious", to: "other-victim")
        try link("DSC_0001.JPG", to: "victim", in: directory)
        try link("DSC_0001.JPG.partial", to: "other-victim", in: directory)
        let file = try Self.partial("DSC_0001.JPG", in: directory)
        try file.write(Array("picture".utf8))
        try file.complete()
        #expect(try directory.read("victim") == "precious")
        #expect(try directory.read("other-victim") == "also precious")
        #expect(try isRegularFile("DSC_0001.JPG", in: directory))
        #expect(try directory.read("DSC_0001.JPG") == "picture")
        #expect(!exists("DSC_0001.JPG.partial", in: directory))
    }

    /// A partial file left by a download that was killed is made anew; one that a running download writes is left
    /// to it, and the second download is told why it cannot start.
    @Test func aLeftOverPartialFileIsReplacedAndALiveOneIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        try directory.write("half a picture from a killed run", to: "DSC_0002.JPG.partial")
        let first = try Self.partial("DSC_0002.JPG", in: directory)
        try first.write(Array("new".utf8))
        #expect(try directory.read("DSC_0002.JPG.partial") == "new")

        let error = #expect(throws: ViewfinderError.self) {
            try Self.partial("DSC_0002.JPG", in: directory)
        }
        #expect(error?.code == .deviceBusy && error?.message.contains("another download is writing") == true)
        try first.complete()
        #expect(try directory.read("DSC_0002.JPG") == "new")

        let discarded = try Self.partial("DSC_0003.JPG", in: directory)
        try discarded.write(Array("gone".utf8))
        discarded.discard()
        #expect(!exists("DSC_0003.JPG.partial", in: directory) && !exists("DSC_0003.JPG", in: directory))
    }

    /// A file that cannot take its name (a folder has it) is a clear error, and leaves neither its partial file nor
    /// a change to what holds the name.
    @Test func aNameThatCannotBeTakenLeavesNoPartialFile() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: directory.path + "/DSC_0004.JPG/kept", withIntermediateDirectories: true)
        let file = try Self.partial("DSC_0004.JPG", in: directory)
        try file.write(Array("picture".utf8))
        let error = #expect(throws: ViewfinderError.self) { try file.complete() }
        #expect(error?.message.contains("renaming") == true, "\(String(describing: error))")
        #expect(!exists("DSC_0004.JPG.partial", in: directory))
        #expect(exists("DSC_0004.JPG/kept", in: directory))
        file.discard()
    }

    private func link(_ name: String, to target: String, in directory: TemporaryDirectory) throws {
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/" + name, withDestinationPath: directory.path + "/" + target)
    }

    private func isRegularFile(_ name: String, in directory: TemporaryDirectory) throws -> Bool {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/" + name)
        return attributes[.type] as? FileAttributeType == .typeRegular
    }

    private func exists(_ name: String, in directory: TemporaryDirectory) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: directory.path + "/" + name)) != nil
    }
}
