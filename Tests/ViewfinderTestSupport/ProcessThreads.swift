#if canImport(Glibc)
import Glibc
#endif

/// The threads of a process as `/proc/PID/task` lists them, for counting threads and reading per-thread figures.
public enum ProcessThreads {
    /// The thread IDs of a process (`self` for this one).
    public static func ids(of process: String = "self") -> [String] {
        guard let directory = opendir("/proc/\(process)/task") else { return [] }
        defer { closedir(directory) }
        var ids: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.first?.isNumber == true { ids.append(name) }
        }
        return ids
    }

    /// The lines of one file, such as `status` or `schedstat`, of each thread of a process; threads that end while
    /// they are read are left out.
    public static func lines(of file: String, in process: String = "self") -> [[String]] {
        ids(of: process).compactMap { lines(of: file, thread: $0, in: process) }
    }

    /// The lines of one file of one thread, or `nil` once the thread has ended.
    public static func lines(of file: String, thread id: String, in process: String = "self") -> [String]? {
        guard let handle = fopen("/proc/\(process)/task/\(id)/\(file)", "r") else { return nil }
        defer { fclose(handle) }
        var lines: [String] = []
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), handle) != nil {
            lines.append(String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return lines
    }
}
