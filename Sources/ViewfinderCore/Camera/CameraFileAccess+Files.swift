import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension CameraFileAccess {
    /// Downloads a file to `path`, where it appears only once the whole file has arrived.
    ///
    /// The bytes go to a file named `path` with `.partial` appended, which is flushed to disk and renamed to `path`
    /// after the last chunk; when the download fails, is cancelled or the camera goes away, the partial file is
    /// removed. A file at `path` is therefore always complete, and an existing one is replaced only on success.
    ///
    /// ```swift
    /// try await camera.download(item, toFile: "/home/me/Pictures/\(item.name)")
    /// ```
    ///
    /// - Parameters:
    ///   - item: The file.
    ///   - path: Where to put it.
    ///   - progress: Called after each chunk is written; throwing stops the download.
    /// - Throws: What ``download(_:chunkHandler:)`` or `progress` throws, or a ``ViewfinderError`` from the file
    ///   system, such as ``ViewfinderError/Code/permissionDenied``, or ``ViewfinderError/Code/notFound`` for a folder
    ///   that does not exist.
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
final class PartialFile: Sendable {
    /// The name the file gets once complete.
    let path: String
    /// The name it has until then.
    let partialPath: String
    private let descriptor: Locked<FileDescriptor?>

    /// Creates (or truncates) the partial file for `path`.
    init(completing path: String) throws(ViewfinderError) {
        self.path = path
        partialPath = path + ".partial"
        do {
            descriptor = Locked(try FileDescriptor.open(partialPath, O_WRONLY | O_CREAT | O_TRUNC))
        } catch {
            throw ViewfinderError(error, while: "creating \(partialPath)")
        }
    }

    deinit {
        discard()
    }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(ViewfinderError) {
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

    /// Flushes the file to disk, closes it and gives it its real name.
    func complete() throws(ViewfinderError) {
        guard let file = descriptor.withLock({ $0.take() }) else {
            throw ViewfinderError(.invalidArgument, "\(partialPath) was already closed")
        }
        do {
            try file.sync()
            try file.close()
        } catch {
            unlink(partialPath)
            throw ViewfinderError(error, while: "writing \(partialPath)")
        }
        guard rename(partialPath, path) == 0 else {
            let error = Errno.current
            unlink(partialPath)
            throw ViewfinderError(error, while: "renaming \(partialPath) to \(path)")
        }
    }

    /// Closes and removes the partial file, unless it was completed.
    func discard() {
        guard let file = descriptor.withLock({ $0.take() }) else { return }
        try? file.close()
        unlink(partialPath)
    }
}
