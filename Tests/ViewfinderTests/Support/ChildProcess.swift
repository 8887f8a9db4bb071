import Dispatch
import Testing
import Viewfinder
import ViewfinderSimulator

#if canImport(Glibc)
import Glibc
#endif

/// A program the tests run: its standard input is a pipe the test holds, its output and errors another it reads.
///
/// Every read waits with a timeout, so a child that hangs fails the test instead of hanging it.
final class ChildProcess: @unchecked Sendable {
    // Unchecked: the descriptors and the output buffer are used by one test task at a time.

    let pid: pid_t
    private let output: Int32
    private var input: Int32
    private var buffered: [UInt8] = []
    private var reaped: Int32?

    /// Starts `arguments[0]`, looked up in `PATH`, with `environment` added to this process's environment.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        var outputPipe: [Int32] = [0, 0]
        var inputPipe: [Int32] = [0, 0]
        guard pipe(&outputPipe) == 0, pipe(&inputPipe) == 0 else {
            throw ViewfinderError.system(errno: errno, "creating pipes for \(arguments[0])")
        }
        // Only the copies made for the child's standard streams survive into it, or into other tests' children.
        for descriptor in outputPipe + inputPipe {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 2)
        var variables: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            variables.append(String(cString: variable))
            entry += 1
        }
        variables += environment.map { "\($0.key)=\($0.value)" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, argv[0]!, &actions, nil, argv, envp)
        close(inputPipe[0])
        close(outputPipe[1])
        guard result == 0 else {
            close(inputPipe[1])
            close(outputPipe[0])
            throw ViewfinderError.system(errno: result, "starting \(arguments.joined(separator: " "))")
        }
        self.pid = pid
        output = outputPipe[0]
        input = inputPipe[1]
    }

    deinit {
        if reaped == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(output)
        if input >= 0 { close(input) }
    }

    /// Runs a command to its end and returns its exit status and output.
    static func run(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> (
        status: Int32, output: String
    ) {
        let child = try ChildProcess(arguments)
        return try await child.finish(timeout: timeout)
    }

    /// Reads output until a line contains `text`, and returns the output read so far.
    func waitForLine(containing text: String, timeout: Duration) async throws -> String {
        try await blocking { [self] in
            let deadline = ContinuousClock.now + timeout
            while !String(decoding: buffered, as: UTF8.self).contains(text) {
                guard try readSome(until: deadline) else {
                    throw ViewfinderError(
                        .disconnected,
                        "the child ended before printing \(text):\n\(String(decoding: buffered, as: UTF8.self))")
                }
            }
            return String(decoding: buffered, as: UTF8.self)
        }
    }

    /// Closes the child's standard input, reads the rest of its output and waits for it to exit; a child still
    /// running at `timeout` is killed.
    func finish(timeout: Duration) async throws -> (status: Int32, output: String) {
        try await blocking { [self] in
            if input >= 0 {
                close(input)
                input = -1
            }
            let deadline = ContinuousClock.now + timeout
            do {
                while try readSome(until: deadline) {}
            } catch {
                kill(pid, SIGKILL)
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            reaped = status
            let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            return (exitStatus, String(decoding: buffered, as: UTF8.self))
        }
    }

    /// Reads what the child wrote; `false` at the end of its output.
    private func readSome(until deadline: ContinuousClock.Instant) throws -> Bool {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let remaining = ContinuousClock.now.duration(to: deadline)
        let milliseconds = Int32(
            clamping: max(
                0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0, errno == EINTR { return true }
        guard ready > 0 else {
            throw ViewfinderError(
                .timeout, "the child printed nothing more in time:\n\(String(decoding: buffered, as: UTF8.self))")
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = read(output, &chunk, chunk.count)
        if count < 0, errno == EINTR { return true }
        guard count > 0 else { return false }
        buffered += chunk[..<count]
        return true
    }

    /// Runs blocking work on a dispatch thread, away from Swift's cooperative pool.
    private func blocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }
}

extension CameraSimulator {
    /// Stops the simulator from a dispatch thread: stopping waits for its threads, which must not hold up one of the
    /// few threads Swift concurrency runs tests on.
    func stopOffThePool() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.stop()
                continuation.resume()
            }
        }
    }
}

/// The example suites that run the simulated camera: one test at a time, so as not to crowd out other tests.
@Suite(.serialized) enum SimulatedCameraExamples {}
