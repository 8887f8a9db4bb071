import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension CameraFileAccess {
    /// Downloads a file to `path`, where it appears only once the whole file has arrived.
    ///
    /// The bytes go to a new file named `path` with `.partial` appended, which is renamed to `path` after the last
    /// chunk and then flushed to disk before the call returns; when the download fails, is cancelled or the camera
    /// goes away, the partial file is removed. A file at `path` is therefore always complete, and an existing one (or
    /// a symbolic link) is replaced only on success, never written through. A partial file left by a download that
    /// was killed is replaced.
    ///
    /// ```swift
    /// try await camera.download(item, toFile: "/home/me/Pictures/\(item.safeFileName)")
    /// ```
    ///
    /// - Parameters:
    ///   - item: The file.
    ///   - path: Where to put it.
    ///   - progress: Called after each chunk is written; throwing stops the download.
    /// - Throws: What ``download(_:chunkHandler:)`` or `progress` throws, or a ``ViewfinderError`` from the file
    ///   system, such as ``ViewfinderError/Code/permissionDenied``, or ``ViewfinderError/Code/notFound`` for a folder
    ///   that does not exist; ``ViewfinderError/Code/deviceBusy`` when another download is writing the same file.
    public func download(
        _ item: CameraFileItem, toFile path: String,
        progress: @escaping @Sendable (CameraTransferProgress) throws -> Void = { _ in }
    ) async throws {
        let file = try PartialFile(completing: path)
        do {
            try await download(item) { chunk, transferred in
                try file.write(chunk)
                try progress(transferred)
            }
            try file.complete()
        } catch {
            file.discard()
            throw error
        }
    }
}

/// A file being written under a temporary name, renamed to its real name only once it is complete.
///
/// The partial file is always a new file: it is created with `O_EXCL | O_NOFOLLOW`, so nothing already at its name,
/// such as a symbolic link to another file, is written through, and renaming it over the real name replaces what is
/// there (a link included) rather than writing into it. The partial file is held with an advisory lock while it is
/// written; one that is left from a download that was killed (no one holds its lock) is removed and made anew, while
/// one that another download is writing is left alone.
package final class PartialFile: Sendable {
    /// The name the file gets once complete.
    package let path: String
    /// The name it has until then.
    package let partialPath: String
    private let descriptor: Locked<FileDescriptor?>

    /// Creates the partial file for `path`, with `permissions` less the process's umask.
    ///
    /// - Throws: ``ViewfinderError`` with the system's error, or ``ViewfinderError/Code/deviceBusy`` when another
    ///   download is writing the partial file.
    package init(completing path: String, permissions: mode_t = 0o644) throws(ViewfinderError) {
        self.path = path
        partialPath = path + ".partial"
        descriptor = Locked(try Self.create(partialPath, permissions: permissions))
    }

    deinit {
        discard()
    }

    /// A new file at `path`, locked; a file left there by a download that is no longer running is removed first.
    private static func create(_ path: String, permissions: mode_t) throws(ViewfinderError) -> FileDescriptor {
        func make() throws(Errno) -> FileDescriptor {
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: permissions)
            // Nobody else can hold the lock of a file just made.
            _ = flock(file.rawValue, LOCK_EX | LOCK_NB)
            return file
        }
        do throws(Errno) {
            return try make()
        } catch let error where error.rawValue == EEXIST {
            guard isLeftOver(path) else {
                throw ViewfinderError(
                    .deviceBusy, "another download is writing \(path); wait for it to end, or stop it")
            }
            unlink(path)
        } catch {
            throw ViewfinderError(error, while: "creating \(path)")
        }
        do throws(Errno) {
            return try make()
        } catch {
            throw ViewfinderError(error, while: "creating \(path)")
        }
    }

    /// Whether what is at `path` is left from a download that is no longer running: a file whose lock nobody holds,
    /// or anything that is not a file of its own, such as a symbolic link.
    private static func isLeftOver(_ path: String) -> Bool {
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return true }
        return flock(file.rawValue, LOCK_EX | LOCK_NB) == 0
    }

    /// Appends `bytes`.
    package func write(_ bytes: [UInt8]) throws(ViewfinderError) {
        let partialPath = partialPath
        try descriptor.withLock { (descriptor) throws(ViewfinderError) in
            guard let raw = descriptor?.rawValue else {
                throw ViewfinderError(.invalidArgument, "\(partialPath) was already closed")
            }
            do throws(Errno) {
                try FileDescriptor.writeAll(bytes, to: raw)
            } catch {
                throw ViewfinderError(error, while: "writing \(partialPath)")
            }
        }
    }

    /// Gives the file its real name and closes it, having flushed it to disk unless `flushing` is false (for files
    /// that are cheap to make again, such as a live view frame).
    ///
    /// The name comes first and the flush after it: every byte is written by then, so a program that opens the file
    /// reads it whole, and whoever waits for it has it without waiting for the disk. The flush still ends before this
    /// returns, so a file whose download has returned survives a power cut.
    ///
    /// - Throws: ``ViewfinderError`` when the rename fails (the partial file is removed) or the flush does (the file
    ///   keeps its name, but the disk may not hold all of it).
    package func complete(flushing: Bool = true) throws(ViewfinderError) {
        guard let file = descriptor.withLock({ $0.take() }) else {
            throw ViewfinderError(.invalidArgument, "\(partialPath) was already closed")
        }
        guard rename(partialPath, path) == 0 else {
            let error = Errno.current
            try? file.close()
            unlink(partialPath)
            throw ViewfinderError(error, while: "renaming \(partialPath) to \(path)")
        }
        do throws(Errno) {
            if flushing {
                do throws(Errno) {
                    try file.sync()
                } catch {
                    try? file.close()
                    throw error
                }
            }
            try file.close()
        } catch {
            throw ViewfinderError(error, while: "writing \(path)")
        }
    }

    /// Closes and removes the partial file, unless it was completed.
    package func discard() {
        guard let file = descriptor.withLock({ $0.take() }) else { return }
        try? file.close()
        unlink(partialPath)
    }
}
