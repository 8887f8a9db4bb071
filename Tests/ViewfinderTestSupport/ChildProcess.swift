import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// A program run as a child process, for the tests and the benchmarks: its standard output and error read through
/// pipes, its standard input a pipe the parent holds, every wait bounded, and what it used measured when it ends.
///
/// ```swift
/// let process = try ChildProcess("/usr/bin/viewfinder", ["preview", "--test-pattern"])
/// let started = process.waitForOutput(timeout: .seconds(10)) { $0.contains("http://") }
/// process.interrupt()
/// let status = process.wait(timeout: .seconds(5))
/// ```
///
/// A name without a slash is looked up in `PATH`. Every descriptor the process holds is close-on-exec but for the
/// child's own three, so children started by other tests meanwhile never hold these pipes open.
public final class ChildProcess: @unchecked Sendable {
    // Unchecked: a process is used by one test or benchmark task at a time.

    /// What a finished run printed and how it ended.
    public struct Result: CustomStringConvertible, Sendable {
        /// The exit status, or 128 plus the signal that ended the process.
        public var status: Int32
        /// Everything printed on standard output (and standard error, when merged).
        public var standardOutput: String
        /// Everything printed on standard error, unless merged into standard output.
        public var standardError: String
        /// The wall-clock time from start to end.
        public var wallSeconds: Double
        /// The CPU time the process used, user and system.
        public var cpuSeconds: Double

        /// Standard output, for runs whose errors were merged into it.
        public var output: String { standardOutput }

        /// The command's status and output, for failure messages.
        public var description: String {
            "status \(status)\n--- stdout:\n\(standardOutput)\n--- stderr:\n\(standardError)"
        }
    }

    /// The process identifier.
    public let pid: pid_t
    private var outputDescriptor: Int32
    private var errorDescriptor: Int32
    private var inputDescriptor: Int32
    private var output: [UInt8] = []
    private var errorOutput: [UInt8] = []
    private var status: Int32?
    private let started = ContinuousClock.now
    private var ended: ContinuousClock.Instant?
    private var usage = rusage()

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - executable: A path, or a name looked up in `PATH`.
    ///   - arguments: The arguments after the program's name.
    ///   - environment: Variables added to this process's environment for the child.
    ///   - mergingErrors: Whether standard error goes to the standard output pipe, interleaved as printed.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], mergingErrors: Bool = false
    ) throws {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        var inputPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0, pipe(&inputPipe) == 0 else {
            throw TestFailure("pipe failed: \(String(cString: strerror(errno)))")
        }
        let all = outputPipe + errorPipe + inputPipe
        for descriptor in all {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergingErrors ? outputPipe[1] : errorPipe[1], 2)
        var variables: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            variables.append(String(cString: variable))
            entry += 1
        }
        variables += environment.map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid = pid_t()
        let result =
            executable.contains("/")
            ? posix_spawn(&pid, executable, &actions, nil, argv, envp)
            : posix_spawnp(&pid, executable, &actions, nil, argv, envp)
        for descriptor in [outputPipe[1], errorPipe[1], inputPipe[0]] {
            close(descriptor)
        }
        guard result == 0 else {
            for descriptor in [outputPipe[0], errorPipe[0], inputPipe[1]] {
                close(descriptor)
            }
            throw TestFailure("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        outputDescriptor = outputPipe[0]
        errorDescriptor = errorPipe[0]
        inputDescriptor = inputPipe[1]
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
        for descriptor in [outputDescriptor, errorDescriptor, inputDescriptor] where descriptor >= 0 {
            close(descriptor)
        }
    }

    /// Runs `executable` to its end and returns what it printed and used; kills it after `timeout`.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        mergingErrors: Bool = false, timeout: Duration = .seconds(120)
    ) throws -> Result {
        let process = try ChildProcess(executable, arguments, environment: environment, mergingErrors: mergingErrors)
        process.closeInput()
        guard process.wait(timeout: timeout) != nil, let result = process.result else {
            throw TestFailure("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout)")
        }
        return result
    }

    /// Runs a command line (its program looked up in `PATH` unless it has a slash) to its end, off Swift's
    /// cooperative pool, with standard error merged into standard output.
    public static func run(
        _ command: [String], environment: [String: String] = [:], timeout: Duration = .seconds(120)
    ) async throws -> Result {
        try await offThePool {
            try run(
                command[0], Array(command.dropFirst()), environment: environment, mergingErrors: true,
                timeout: timeout)
        }
    }

    /// Closes the child's standard input and waits, off Swift's cooperative pool, for the child to end; a child
    /// still running at `timeout` is killed.
    public func finish(timeout: Duration) async -> Result {
        await offThePool { [self] in
            closeInput()
            if wait(timeout: timeout) == nil {
                signal(SIGKILL)
                _ = wait(timeout: .seconds(10))
            }
            return result
                ?? Result(
                    status: 137, standardOutput: standardOutput, standardError: standardError, wallSeconds: 0,
                    cpuSeconds: 0)
        }
    }

    /// Standard output so far.
    public var standardOutput: String { String(decoding: output, as: UTF8.self) }

    /// Standard error so far.
    public var standardError: String { String(decoding: errorOutput, as: UTF8.self) }

    /// How the process ended, once it has; `nil` while it runs.
    public var result: Result? {
        guard let status, let ended else { return nil }
        let wall = started.duration(to: ended)
        return Result(
            status: status, standardOutput: standardOutput, standardError: standardError,
            wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            cpuSeconds: usage.ru_utime.seconds + usage.ru_stime.seconds)
    }

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

    /// Reads output until it holds a whole line after those already taken, and returns that line without its end.
    ///
    /// - Returns: The line, or `nil` when the output ends or `timeout` passes first.
    public func readLine(timeout: Duration = .seconds(60)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let end = output[linesTaken...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: output[linesTaken..<end], as: UTF8.self)
                linesTaken = end + 1
                return line
            }
            guard ContinuousClock.now < deadline, pump(for: .milliseconds(50)).isOpen else { return nil }
        }
    }

    private var linesTaken = 0

    /// Writes `text` to the child's standard input.
    public func write(_ text: String) throws {
        guard inputDescriptor >= 0 else { throw TestFailure("the child's standard input is closed") }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.write(inputDescriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw TestFailure("cannot write to the child: \(String(cString: strerror(errno)))") }
            offset += count
        }
    }

    /// Closes the child's standard input, so a child that reads it sees its end.
    public func closeInput() {
        if inputDescriptor >= 0 {
            close(inputDescriptor)
            inputDescriptor = -1
        }
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

    /// Waits for the process to end, reading its output meanwhile, and records what it used.
    ///
    /// - Returns: The exit status (128 plus the signal for a process a signal ended), or `nil` after `timeout`.
    public func wait(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while status == nil {
            var raw: Int32 = 0
            if wait4(pid, &raw, WNOHANG, &usage) == pid {
                status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                ended = .now
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

    /// The CPU seconds the running process has used so far, summed over its threads (those named `name` only, when
    /// given) from `/proc/PID/task/*/schedstat`, which counts nanoseconds.
    public func cpuSecondsSoFar(ofThreadsNamed name: String? = nil) -> Double {
        let process = "\(pid)"
        let nanoseconds = ProcessThreads.ids(of: process).reduce(0.0) { total, id in
            if let name, ProcessThreads.lines(of: "comm", thread: id, in: process)?.first != name + "\n" {
                return total
            }
            let lines = ProcessThreads.lines(of: "schedstat", thread: id, in: process)
            return total + (Double(lines?.first?.split(separator: " ").first ?? "0") ?? 0)
        }
        return nanoseconds / 1e9
    }
}

extension timeval {
    /// The time in seconds.
    var seconds: Double { Double(tv_sec) + Double(tv_usec) / 1e6 }
}
