import CViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A process forked to undo, with the privileges this process has now, what this process set up, after this process
/// has given them up: a USB gadget made as root, removed once the simulator serving it as `nobody` stops.
///
/// The keeper holds none of this process's descriptors (but its end of a pipe to this one) and ignores Ctrl-C and
/// hang-ups. It runs its early steps each time ``runEarlySteps()`` asks, and its last steps, then exits, once
/// ``finish(within:)`` asks or this process ends however it ends, since the pipe then ends.
///
/// ```swift
/// let keeper = try CleanupKeeper(
///     early: [.write("\n", to: gadget + "/UDC")], last: [.write("\n", to: gadget + "/UDC"), .removeDirectory(gadget)])
/// // … give up root, serve …
/// keeper.runEarlySteps()   // unplug
/// keeper.finish(within: .seconds(10))   // remove, and wait for the keeper to end
/// ```
package final class CleanupKeeper: Sendable {
    /// One thing to undo; each step is tried, and its failure ignored.
    package enum Step: Sendable, Equatable {
        /// Writes `value` to the file at `path`, such as a configfs attribute.
        case write(String, to: String)
        /// Unmounts the file system at `path`, lazily.
        case unmount(String)
        /// Removes the directory at `path`.
        case removeDirectory(String)
        /// Removes the file or symbolic link at `path`.
        case removeFile(String)
    }

    /// The keeper's process ID.
    package let processID: pid_t
    /// This process's end of the pipe to the keeper, until ``finish(within:)`` closes it.
    private let control: Locked<CInt?>

    /// Forks the keeper.
    ///
    /// - Parameters:
    ///   - early: What the keeper does each time it is asked to.
    ///   - last: What the keeper does once it is asked to finish, or this process ends.
    /// - Throws: The `Errno` of `pipe(2)` or `fork(2)`.
    package init(early: [Step], last: [Step]) throws(Errno) {
        var ends: [CInt] = [-1, -1]
        _ = try valueOrErrno { viewfinder_pipe2(&ends, O_CLOEXEC) }.get()
        let forked = Self.withCSteps(early) { early, earlyCount in
            Self.withCSteps(last) { last, lastCount in
                viewfinder_fork_cleanup_keeper(ends[0], early, earlyCount, last, lastCount)
            }
        }
        let error = Errno.current
        Glibc.close(ends[0])
        guard forked > 0 else {
            Glibc.close(ends[1])
            throw error
        }
        processID = forked
        control = Locked(ends[1])
    }

    deinit {
        finish(within: .seconds(10))
    }

    /// Has the keeper run its early steps; it does not wait for them.
    package func runEarlySteps() {
        control.withLock { control in
            guard let control else { return }
            var byte = UInt8(ascii: "u")
            _ = Glibc.write(control, &byte, 1)
        }
    }

    /// Has the keeper run its last steps and end, and waits for it at most `timeout`.
    ///
    /// - Returns: Whether the keeper ended in time; later calls return at once.
    @discardableResult
    package func finish(within timeout: Duration) -> Bool {
        guard
            let descriptor = control.withLock({ control -> CInt? in
                defer { control = nil }
                return control
            })
        else { return true }
        Glibc.close(descriptor)
        let deadline = ContinuousClock.now + timeout
        var status: CInt = 0
        while waitpid(processID, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else { return false }
            usleep(5000)
        }
        return true
    }

    /// Runs `steps` in this process, as the keeper would.
    package static func run(_ steps: [Step]) {
        withCSteps(steps) { steps, count in viewfinder_run_cleanup(steps, count) }
    }

    /// Calls `body` with `steps` as C structures, valid during the call.
    private static func withCSteps<Result>(
        _ steps: [Step], _ body: (UnsafePointer<viewfinder_cleanup_step>?, CInt) -> Result
    ) -> Result {
        var strings: [UnsafeMutablePointer<CChar>?] = []
        defer {
            for string in strings { free(string) }
        }
        func copy(_ text: String) -> UnsafePointer<CChar>? {
            let string = strdup(text)
            strings.append(string)
            return UnsafePointer(string)
        }
        let structures = steps.map { step in
            switch step {
            case .write(let value, let path):
                viewfinder_cleanup_step(
                    kind: Int32(VIEWFINDER_CLEANUP_WRITE.rawValue), path: copy(path), value: copy(value))
            case .unmount(let path):
                viewfinder_cleanup_step(kind: Int32(VIEWFINDER_CLEANUP_UNMOUNT.rawValue), path: copy(path), value: nil)
            case .removeDirectory(let path):
                viewfinder_cleanup_step(
                    kind: Int32(VIEWFINDER_CLEANUP_REMOVE_DIRECTORY.rawValue), path: copy(path), value: nil)
            case .removeFile(let path):
                viewfinder_cleanup_step(
                    kind: Int32(VIEWFINDER_CLEANUP_REMOVE_FILE.rawValue), path: copy(path), value: nil)
            }
        }
        return structures.withUnsafeBufferPointer { body($0.baseAddress, CInt($0.count)) }
    }
}
