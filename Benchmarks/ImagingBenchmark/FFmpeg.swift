#if canImport(Glibc)
import Glibc
#endif

/// ffmpeg doing the same work, as a separate process: the time per frame of a command with the work, less the same
/// command without it, over `frames` frames of one input file looped.
struct FFmpeg {
    let path: String
    let directory: String

    /// The ffmpeg on the PATH, or `nil` when there is none.
    init?(directory: String) {
        let searchPath = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let candidates: [String] = searchPath.split(separator: ":").map { "\($0)/ffmpeg" }
        guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else { return nil }
        self.path = found
        self.directory = directory
    }

    /// CPU seconds per frame that `work` adds to reading `input` (arguments before `-i`, then the file) and
    /// discarding it; the smallest of three runs of each command, with one thread.
    func secondsPerFrame(input: [String], file: String, frames: Int, baseline: [String], work: [String]) -> Double? {
        let common = ["-hide_banner", "-nostdin", "-nostats", "-benchmark", "-threads", "1", "-filter_threads", "1"]
        let looped = ["-stream_loop", String(frames - 1)] + input + ["-i", file]
        func best(_ output: [String]) -> Double? {
            (0..<3).compactMap { _ in run(common + looped + output + ["-threads", "1", "-f", "null", "-"]) }.min()
        }
        guard let with = best(work), let without = best(baseline) else { return nil }
        return max(with - without, 0) / Double(frames)
    }

    /// Runs ffmpeg and returns the user + system time its `-benchmark` option reports, or `nil` when it fails.
    private func run(_ arguments: [String]) -> Double? {
        let log = "\(directory)/ffmpeg.log"
        var cArguments = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, &cArguments, environ) == 0 else { return nil }
        var status: CInt = 0
        guard waitpid(pid, &status, 0) == pid, status == 0 else { return nil }
        guard let text = readFile(log) else { return nil }
        let fields = text.split(whereSeparator: { $0 == "\n" || $0 == " " })
        func seconds(_ name: String) -> Double? {
            fields.last(where: { $0.hasPrefix(name + "=") }).flatMap { Double($0.dropFirst(name.count + 1).dropLast()) }
        }
        guard let user = seconds("utime"), let system = seconds("stime") else { return nil }
        return user + system
    }
}

/// Writes `bytes` to a file, or stops the benchmark.
func writeFile(_ path: String, _ bytes: UnsafeRawBufferPointer) {
    guard let file = fopen(path, "wb"), fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count else {
        fatalError("cannot write \(path)")
    }
    fclose(file)
}

/// The contents of a text file, or `nil`.
func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
