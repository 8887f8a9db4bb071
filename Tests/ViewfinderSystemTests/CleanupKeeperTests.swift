import Testing
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The keeper a process forks to undo, with its privileges of now, what it set up, once it has given them up: here
/// on files in a scratch directory, as the simulator's USB gadget is undone in configfs.
@Suite(.timeLimit(.minutes(1))) struct CleanupKeeperTests {
    /// A scratch directory with a file `attribute`, a file `link` and an empty folder `folder` in it.
    static func scratch() throws -> String {
        var template = Array("/tmp/viewfinder-keeper-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Errno.current }
        let directory = String(cString: made)
        for name in ["attribute", "link"] {
            let file = try FileDescriptor.open("\(directory)/\(name)", O_WRONLY | O_CREAT)
            try file.close()
        }
        guard mkdir("\(directory)/folder", 0o755) == 0 else { throw Errno.current }
        return directory
    }

    static func contents(_ path: String) -> String? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY), let bytes = try? file.readAll(limit: 4096) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theKeeperRunsItsEarlyStepsWhenAskedAndItsLastOnesWhenToldToFinish() async throws {
        let directory = try Self.scratch()
        let keeper = try CleanupKeeper(
            early: [.write("unplugged", to: "\(directory)/attribute")],
            last: [
                .write("removed", to: "\(directory)/attribute"), .removeFile("\(directory)/link"),
                .removeDirectory("\(directory)/folder"),
            ])
        #expect(keeper.processID > 0)
        // The keeper ignores Ctrl-C, which the terminal sends the whole process group.
        #expect(kill(keeper.processID, SIGINT) == 0)
        keeper.runEarlySteps()
        try await waitUntil { Self.contents("\(directory)/attribute") == "unplugged" }
        #expect(access("\(directory)/link", F_OK) == 0 && access("\(directory)/folder", F_OK) == 0)

        #expect(keeper.finish(within: .seconds(30)))
        #expect(Self.contents("\(directory)/attribute") == "removed")
        #expect(access("\(directory)/link", F_OK) != 0 && access("\(directory)/folder", F_OK) != 0)
        // The keeper has ended and been waited for.
        #expect(kill(keeper.processID, 0) != 0)
        #expect(keeper.finish(within: .zero))
        CleanupKeeper.run([.removeFile("\(directory)/attribute"), .removeDirectory(directory)])
        #expect(access(directory, F_OK) != 0)
    }

    @Test func theKeeperHoldsNoneOfTheProcessesDescriptors() async throws {
        let directory = try Self.scratch()
        defer {
            CleanupKeeper.run([
                .removeFile("\(directory)/attribute"), .removeFile("\(directory)/link"),
                .removeDirectory("\(directory)/folder"), .removeDirectory(directory),
            ])
        }
        let held = try FileDescriptor.open("\(directory)/attribute", O_RDONLY)
        let keeper = try CleanupKeeper(early: [], last: [])
        defer { keeper.finish(within: .seconds(30)) }
        // The standard three, on /dev/null, and the keeper's end of its pipe, once it has closed the rest.
        try await waitUntil("the keeper to let go of this process's descriptors: \(Self.descriptors(of: keeper))") {
            Self.descriptors(of: keeper) == ["0", "1", "2", "3"]
        }
        #expect(held.rawValue > 3)
    }

    /// The descriptors a keeper holds, by number.
    static func descriptors(of keeper: CleanupKeeper) -> [String] {
        Directory.names(in: "/proc/\(keeper.processID)/fd").sorted { Int($0) ?? 0 < Int($1) ?? 0 }
    }

    @Test func usersAreNamedByNameOrNumbers() {
        #expect(UserAccount.named("root") == UserAccount(name: "root", userID: 0, groupID: 0))
        #expect(UserAccount.named("1234") == UserAccount(name: "1234", userID: 1234, groupID: 1234))
        #expect(UserAccount.named("1234:99") == UserAccount(name: "1234:99", userID: 1234, groupID: 99))
        #expect(UserAccount.named("nobody")?.userID == 65534)
        #expect(UserAccount.named("no-such-user-of-this-machine") == nil)
        #expect(UserAccount.named("12:x") == nil)
    }
}
