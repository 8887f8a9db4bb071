#if canImport(Glibc)
import Glibc
#endif

/// Reading directories, such as the kernel's listings in `/sys` and `/dev`.
package enum Directory {
    /// The names in a directory, without `.` and `..` (`opendir(3)`, `readdir(3)`); empty when it cannot be read.
    package static func names(in path: String) -> [String] {
        (try? entries(in: path)) ?? []
    }

    /// The names in a directory, without `.` and `..` (`opendir(3)`, `readdir(3)`).
    ///
    /// - Throws: The `Errno` that `opendir` or `readdir` gave, such as `ENOENT` for a missing directory or `EMFILE`
    ///   when the process has no descriptor left.
    package static func entries(in path: String) throws(Errno) -> [String] {
        guard let directory = opendir(path) else { throw Errno.current }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw Errno.current }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}
