#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a file.
///
/// - Throws: ``TestFailure`` when the file cannot be opened.
public func readFile(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw TestFailure("could not open \(path): error \(errno)") }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        bytes += chunk[..<count]
    }
    return bytes
}
