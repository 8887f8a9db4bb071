#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, whose resource usage is read when it is reaped with `wait4`.
final class Subprocess {
    /// What a finished process used.
    struct Outcome {
        var status: Int32
        var wallSeconds: Double
        var cpuSeconds: Double
        var output: String
    }

    let pid: pid_t
    private let outputDescriptor: Int32
    private let inputDescriptor: Int32
    private let started: ContinuousClock.Instant

    /// Starts `arguments[0]` (looked up in `PATH`) in the current directory, with its standard output (and error, when
    /// `mergingErrors`) on a pipe and its standard input on another pipe the parent holds open.
    init(_ arguments: [String], mergingErrors: Bool = true) throws {
        var output: [Int32] = [0, 0]
        var input: [Int32] = [0, 0]
        guard pipe(&output) == 0, pipe(&input) == 0 else { throw BenchmarkError("cannot create pipes") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if mergingErrors { posix_spawn_file_actions_adddup2(&actions, output[1], 2) }
        for descriptor in [input[0], input[1], output[0], output[1]] {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        var arguments = arguments.map { strdup($0) } + [nil]
        defer {
            for argument in arguments { free(argument) }
        }
        var pid: pid_t = 0
        started = .now
        let result = posix_spawnp(&pid, arguments[0]!, &actions, nil, &arguments, environ)
        close(input[0])
        close(output[1])
        guard result == 0 else {
            close(input[1])
            close(output[0])
            throw BenchmarkError("cannot start \(arguments): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        outputDescriptor = output[0]
        inputDescriptor = input[1]
    }

    /// Reads one line of the child's output.
    func readLine() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(outputDescriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    /// Closes the child's standard input, reads the rest of its output and reaps it.
    func wait() -> Outcome {
        close(inputDescriptor)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(outputDescriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[..<count]
        }
        close(outputDescriptor)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let wall = started.duration(to: .now)
        return Outcome(
            status: status, wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            cpuSeconds: usage.ru_utime.seconds + usage.ru_stime.seconds, output: String(decoding: output, as: UTF8.self)
        )
    }

    /// Runs a command to completion.
    static func run(_ arguments: [String]) throws -> Outcome {
        try Subprocess(arguments).wait()
    }

    /// The CPU seconds a running child has used so far, summed over its threads from `/proc/PID/task/*/schedstat`,
    /// which counts nanoseconds.
    func cpuSecondsSoFar() -> Double {
        guard let directory = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(directory) }
        var nanoseconds = 0.0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name.first?.isNumber == true, let file = fopen("/proc/\(pid)/task/\(name)/schedstat", "r") else {
                continue
            }
            var line = [CChar](repeating: 0, count: 256)
            if fgets(&line, Int32(line.count), file) != nil {
                let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                nanoseconds += Double(text.split(separator: " ").first ?? "0") ?? 0
            }
            fclose(file)
        }
        return nanoseconds / 1e9
    }
}

extension timeval {
    var seconds: Double { Double(tv_sec) + Double(tv_usec) / 1e6 }
}

/// A failure that stops the benchmark.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
