import ViewfinderTestSupport

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
        guard let result = try? ChildProcess.run(path, arguments, timeout: .seconds(600)), result.status == 0 else {
            return nil
        }
        let fields = result.standardError.split(whereSeparator: { $0 == "\n" || $0 == " " })
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
