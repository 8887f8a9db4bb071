#if canImport(Glibc)
import Glibc
#endif

/// A program run as a child process, its standard output and error read through pipes, every wait bounded.
///
/// ```swift
/// let process = try ChildProcess("/usr/bin/viewfinder", ["preview", "--test-pattern"])
/// let started = process.waitForOutput(timeout: .seconds(10)) { $0.contains("http://") }
/// process.interrupt()
/// let status = process.wait(timeout: .seconds(5))
/// ```
public final class ChildProcess {
    /// What a finished run printed and how it ended.
    public struct Result: CustomStringConvertible {
        /// The exit status, or 128 plus the signal that ended the process.
        public var status: Int32
        /// Everything printed on standard output.
        public var standardOutput: String
        /// Everything printed on standard error.
        public var standardError: String

        /// The command's status and output, for failure messages.
        public var description: String {
            "status \(status)\n--- stdout:\n\(standardOutput)\n--- stderr:\n\(standardError)"
        }
    }

    /// The process identifier.
    public let pid: pid_t
    private var outputDescriptor: Int32
    private var errorDescriptor: Int32
    private var output: [UInt8] = []
    private var errorOutput: [UInt8] = []
    private var status: Int32?

    /// Starts `executable` with `arguments`, in the caller's environment.
    public init(_ executable: String, _ arguments: [String]) throws {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else { throw TestFailure("pipe failed: errno \(errno)") }
        // Other children started meanwhile must not hold these pipes open.
        for descriptor in outputPipe + errorPipe {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        for descriptor in outputPipe + errorPipe {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(outputPipe[1])
        close(errorPipe[1])
        guard result == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw TestFailure("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        outputDescriptor = outputPipe[0]
        errorDescriptor = errorPipe[0]
        for descriptor in [outputDescriptor, errorDescriptor] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
        for descriptor in [outputDescriptor, errorDescriptor] where descriptor >= 0 {
            close(descriptor)
        }
    }

    /// Runs `executable` to its end and returns what it printed; kills it after `timeout`.
    public static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(120)) throws
        -> Result
    {
        let process = try ChildProcess(executable, arguments)
        guard let status = process.wait(timeout: timeout) else {
            throw TestFailure("\(arguments.joined(separator: " ")) did not finish within \(timeout)")
        }
        return Result(status: status, standardOutput: process.standardOutput, standardError: process.standardError)
    }

    /// Standard output so far.
    public var standardOutput: String { String(decoding: output, as: UTF8.self) }

    /// Standard error so far.
    public var standardError: String { String(decoding: errorOutput, as: UTF8.self) }

    /// Reads output until `condition` holds for standard output so far, or `timeout` passes, or the process ends.
    ///
    /// - Returns: Whether `condition` held.
    public func waitForOutput(timeout: Duration, until condition: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(standardOutput) {
            guard ContinuousClock.now < deadline, pump(for: .milliseconds(50)).isOpen else {
                return condition(standardOutput)
            }
        }
        return true
    }

    /// Sends SIGINT, as Ctrl-C does.
    public func interrupt() {
        signal(SIGINT)
    }

    /// Sends a signal, such as SIGKILL, which ends the process at once: the kernel closes its descriptors, and
    /// connections it had with data still unread are reset.
    public func signal(_ number: Int32) {
        if status == nil { kill(pid, number) }
    }

    /// Waits for the process to end, reading its output meanwhile.
    ///
    /// - Returns: The exit status (128 plus the signal for a process a signal ended), or `nil` after `timeout`.
    public func wait(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while status == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                break
            }
            guard ContinuousClock.now < deadline else { return nil }
            if !pump(for: .milliseconds(20)).isOpen {
                // Both pipes are closed: the process is ending; do not spin.
                usleep(5000)
            }
        }
        while pump(for: .zero).bytesRead > 0 {}
        return status
    }

    /// Reads what is available on either pipe, waiting up to `duration`.
    private func pump(for duration: Duration) -> (isOpen: Bool, bytesRead: Int) {
        let open = [outputDescriptor, errorDescriptor].filter { $0 >= 0 }
        guard !open.isEmpty else { return (false, 0) }
        var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let (seconds, attoseconds) = duration.components
        let milliseconds = Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return (true, 0) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var bytesRead = 0
        for entry in descriptors where entry.revents != 0 {
            let count = read(entry.fd, &buffer, buffer.count)
            bytesRead += max(count, 0)
            if count > 0 {
                if entry.fd == outputDescriptor {
                    output += buffer[..<count]
                } else {
                    errorOutput += buffer[..<count]
                }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                close(entry.fd)
                if entry.fd == outputDescriptor { outputDescriptor = -1 } else { errorDescriptor = -1 }
            }
        }
        return (outputDescriptor >= 0 || errorDescriptor >= 0, bytesRead)
    }

    /// The resident memory of the process in bytes, from `/proc/PID/status`, or `nil` once it has ended.
    public var residentBytes: Int? {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmRSS:") {
                let digits = text.filter(\.isNumber)
                return Int(digits).map { $0 * 1024 }
            }
        }
        return nil
    }
}
