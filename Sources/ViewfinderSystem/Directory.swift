#if canImport(Glibc)
import Glibc
#endif

/// Reading directories, such as the kernel's listings in `/sys` and `/dev`.
package enum Directory {
    /// The names in a directory, without `.` and `..` (`opendir(3)`, `readdir(3)`); empty when it cannot be read.
    package static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
