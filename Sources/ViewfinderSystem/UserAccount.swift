import CViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A user of this machine as a process can become one: its user and group IDs.
///
/// ```swift
/// let nobody = try #require(UserAccount.named("nobody"))
/// try nobody.become()   // root is gone for good, in every thread
/// ```
package struct UserAccount: Sendable, Equatable {
    /// The user's name, or the number it was given as.
    package var name: String
    /// The user ID.
    package var userID: uid_t
    /// The user's group ID.
    package var groupID: gid_t

    /// Creates an account from its IDs.
    package init(name: String, userID: uid_t, groupID: gid_t) {
        self.name = name
        self.userID = userID
        self.groupID = groupID
    }

    /// The overflow user and group, 65534, which is `nobody` and `nogroup` on Debian.
    package static let nobody = UserAccount(name: "nobody", userID: 65534, groupID: 65534)

    /// The account `name` names, or `nil` for a name of no user.
    ///
    /// The name is a user in the password database, or numbers: `UID` (whose group is the same number) or
    /// `UID:GID`. `nobody` is ``nobody`` on a system that lists no such user, such as an initramfs.
    package static func named(_ name: String) -> UserAccount? {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        if let user = parts.first.flatMap({ uid_t($0) }), parts.count <= 2 {
            guard parts.count == 2 else { return UserAccount(name: name, userID: user, groupID: user) }
            return gid_t(parts[1]).map { UserAccount(name: name, userID: user, groupID: $0) }
        }
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        if getpwnam_r(name, &entry, &buffer, buffer.count, &found) == 0, found != nil {
            return UserAccount(name: name, userID: entry.pw_uid, groupID: entry.pw_gid)
        }
        return name == nobody.name ? nobody : nil
    }

    /// Makes this process the user, for good and in every thread: its supplementary groups become the user's group
    /// alone, then its real, effective and saved group and user IDs become the user's.
    ///
    /// glibc changes every thread it started, but not one in its exit: the main thread of a program that awaits, on
    /// Linux, which Dispatch parks there to take signals. Such a thread is given the IDs from a signal handler it
    /// runs; then every running thread is checked.
    ///
    /// - Throws: The `Errno` of the call that failed (`EPERM` without the privilege to change them), or `EPERM` when
    ///   a thread keeps other IDs or the process could still become root again.
    package func become() throws(Errno) {
        var groups = [groupID]
        _ = try valueOrErrno { setgroups(1, &groups) }.get()
        _ = try valueOrErrno { setgid(groupID) }.get()
        _ = try valueOrErrno { setuid(userID) }.get()
        for thread in Self.runningThreads() where !isHeld(by: thread) {
            guard let id = pid_t(thread) else { continue }
            try give(thread: id)
        }
        guard Self.runningThreads().allSatisfy(isHeld), getuid() == userID, geteuid() == userID, getgid() == groupID,
            userID == 0 || setuid(0) != 0
        else {
            throw Errno(rawValue: EPERM)
        }
    }

    /// Makes one thread of this process the user, with the per-thread system calls, from a signal handler the thread
    /// runs (it must not block SIGRTMAX - 1); the other threads keep their IDs.
    ///
    /// - Throws: The thread's `Errno`: `ESRCH` for no such thread, `EPERM` when it may not change its IDs,
    ///   `ETIMEDOUT` when it did not run the handler within five seconds.
    private func give(thread: pid_t) throws(Errno) {
        _ = try valueOrErrno { viewfinder_set_thread_credentials(thread, userID, groupID) }.get()
    }

    /// The IDs of this process's threads that have not ended, from `/proc/self/task`.
    private static func runningThreads() -> [String] {
        Directory.names(in: "/proc/self/task").filter { status(of: $0)["State"]?.first != "Z" }
    }

    /// Whether a thread's user and group IDs, all four of each, are this user's.
    private func isHeld(by thread: String) -> Bool {
        let status = Self.status(of: thread)
        return status["Uid"] == Array(repeating: "\(userID)", count: 4)
            && status["Gid"] == Array(repeating: "\(groupID)", count: 4)
    }

    /// The fields of a thread's `/proc/self/task/ID/status`, each split into its words.
    private static func status(of thread: String) -> [String: [String]] {
        guard let file = try? FileDescriptor.open("/proc/self/task/\(thread)/status", O_RDONLY),
            let bytes = try? file.readAll(limit: 1 << 16)
        else { return [:] }
        var fields: [String: [String]] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].split { $0 == "\t" || $0 == " " }
                .map(String.init)
        }
        return fields
    }
}
