#if canImport(Glibc)
import Glibc
#endif

/// The programs this package builds, found beside the running test bundle or benchmark in the build products.
public enum BuiltProduct {
    /// The path of the product `name`: the variable `VIEWFINDER` for `viewfinder` when set, otherwise the file
    /// `name` in the folder of this process's executable.
    public static func path(of name: String) -> String {
        if name == "viewfinder", let path = getenv("VIEWFINDER") { return String(cString: path) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = String(decoding: buffer[..<max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        return directory.joined(separator: "/") + "/" + name
    }
}
