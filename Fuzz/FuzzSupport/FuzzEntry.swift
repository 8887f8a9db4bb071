#if canImport(Glibc)
import Glibc
#endif

#if VIEWFINDER_FUZZING
import CLibFuzzer
#endif

/// The entry point of a fuzz target.
///
/// Built for fuzzing (`make fuzz`: `-sanitize=fuzzer,address` and the `VIEWFINDER_FUZZING` condition), a target hands
/// its command line to libFuzzer, which calls the target's body with input after input. Built normally, the same
/// program replays inputs: every file named on its command line, or in a directory named there, once, so a crash
/// that fuzzing found can be rerun under a debugger.
///
/// ```swift
/// @main enum MyFuzzer {
///     static func main() {
///         FuzzEntry.run { bytes in _ = try? PTPIPPacket.decode(bytes) }
///     }
/// }
/// ```
public enum FuzzEntry {
    /// The body libFuzzer's callback runs; set once, before the driver starts.
    nonisolated(unsafe) private static var body: ([UInt8]) -> Void = { _ in }

    /// Runs `body` on fuzz inputs, as libFuzzer or the replay driver chooses, then exits.
    public static func run(_ body: @escaping ([UInt8]) -> Void) -> Never {
        #if VIEWFINDER_FUZZING
        Self.body = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                FuzzEntry.body(Array(UnsafeBufferPointer(start: data, count: size)))
                return 0
            })
        #else
        exit(replay(CommandLine.arguments.dropFirst(), body))
        #endif
    }

    /// Runs `body` once on every file in `paths`, descending into directories.
    ///
    /// - Returns: The exit status: 0, or 64 without paths and 66 when a path cannot be read.
    static func replay(_ paths: ArraySlice<String>, _ body: ([UInt8]) -> Void) -> Int32 {
        guard !paths.isEmpty else {
            printToError("usage: \(CommandLine.arguments[0]) FILE_OR_DIRECTORY...")
            return 64
        }
        var count = 0
        for path in paths {
            guard let files = files(at: path) else {
                printToError("cannot read \(path): \(String(cString: strerror(errno)))")
                return 66
            }
            for file in files {
                guard let bytes = readFile(file) else {
                    printToError("cannot read \(file): \(String(cString: strerror(errno)))")
                    return 66
                }
                body(bytes)
                count += 1
            }
        }
        print("replayed \(count) inputs")
        return 0
    }

    /// The regular files at `path`: the file itself, or a directory's files in name order.
    private static func files(at path: String) -> [String]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFDIR else { return [path] }
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if !name.hasPrefix(".") { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    /// Writes a line to standard error.
    public static func printToError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The bytes of a file, or `nil` when it cannot be read.
    public static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }
}
