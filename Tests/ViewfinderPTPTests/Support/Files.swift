import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// Creates a directory for a test.
func makeDirectory(_ path: String) throws {
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
        throw ViewfinderError.system(errno: errno, "creating \(path)")
    }
}

/// Removes a test's directory and the files in it.
func removeDirectory(_ path: String) {
    guard let directory = opendir(path) else { return }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != ".", name != ".." {
            unlink(path + "/" + name)
        }
    }
    closedir(directory)
    rmdir(path)
}

/// Writes `bytes` to a new file at `path`, replacing any file there.
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw ViewfinderError.system(errno: errno, "creating \(path)") }
    defer { close(descriptor) }
    let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard count == bytes.count else { throw ViewfinderError.system(errno: errno, "writing \(path)") }
}
