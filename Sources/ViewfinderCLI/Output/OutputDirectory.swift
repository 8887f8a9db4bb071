import Foundation
import Viewfinder

/// A directory the tool saves files into, created when missing.
struct OutputDirectory {
    /// The directory's path, as given.
    let path: String

    /// Makes sure `path` is a directory this user can write to, creating it and its parents when missing.
    ///
    /// - Throws: ``CommandFailure`` naming the part that could not be created or written.
    init(_ path: String) throws {
        self.path = path
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST {
                throw Self.failure("cannot create the directory \(partial)", errno: errno)
            }
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw CommandFailure("\(path) is not a directory", exitStatus: ExitStatus.cannotCreate)
        }
        guard access(path, W_OK) == 0 else {
            throw Self.failure("cannot write into \(path)", errno: errno)
        }
    }

    /// The path of the file `name` in the directory.
    func path(for name: String) -> String {
        (path.hasSuffix("/") ? path : path + "/") + name
    }

    /// Writes `bytes` to the file `name` in the directory, replacing it; returns the file's path.
    ///
    /// The bytes go to a new file (``PartialFile``) that takes the name once written, so a file or a symbolic link
    /// already at the name is replaced, never written through, and a reader never sees half a file.
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = path(for: name)
        do throws(ViewfinderError) {
            let partial = try PartialFile(completing: file)
            try partial.write(bytes)
            try partial.complete(flushing: false)
        } catch {
            throw error.errno.map { Self.failure("cannot write \(file)", errno: $0) }
                ?? CommandFailure(error.message, exitStatus: ExitStatus.cannotCreate)
        }
        return file
    }

    private static func failure(_ message: String, errno: Int32) -> CommandFailure {
        let hint: String? =
            switch errno {
            case EACCES, EPERM: "Choose a directory this user can write to with --out."
            case ENOSPC: "The disk is full; free some space or choose another directory with --out."
            default: nil
            }
        return CommandFailure(
            "\(message): \(String(cString: strerror(errno)))", hint: hint, exitStatus: ExitStatus.cannotCreate)
    }
}
