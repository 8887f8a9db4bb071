import CViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor and the duty to close it: the one owner of the descriptor.
///
/// It cannot be copied, so exactly one place closes it: ``close()`` consumes it, and an owner that goes away without
/// closing closes it in `deinit`. Code that needs the number for a system call borrows it through ``rawValue``;
/// nothing may keep that number past the owner's life. Every descriptor Viewfinder opens is opened close-on-exec.
///
/// ```swift
/// let file = try FileDescriptor.open("/proc/net/route", O_RDONLY)
/// let count = try file.read(into: buffer)
/// try file.close()
/// ```
package struct FileDescriptor: ~Copyable, Sendable {
    /// The descriptor's number, for system calls made while the owner lives.
    package let rawValue: CInt

    /// Takes ownership of a descriptor that is open.
    package init(unsafeAdopting rawValue: CInt) {
        self.rawValue = rawValue
    }

    deinit {
        _ = Glibc.close(rawValue)
    }

    /// Opens a file (`open(2)`), close-on-exec.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - flags: `O_RDONLY`, `O_WRONLY | O_CREAT | O_TRUNC` and the like; `O_CLOEXEC` is always added.
    ///   - permissions: The mode of a file `O_CREAT` makes.
    package static func open(_ path: String, _ flags: CInt, permissions: mode_t = 0o644) throws(Errno) -> FileDescriptor
    {
        let descriptor = try valueOrErrno { Glibc.open(path, flags | O_CLOEXEC, permissions) }.get()
        return FileDescriptor(unsafeAdopting: descriptor)
    }

    /// The two ends of a pipe.
    package struct Pipe: ~Copyable, Sendable {
        /// The end to read.
        package var read: FileDescriptor
        /// The end to write.
        package var write: FileDescriptor
    }

    /// A pipe (`pipe2(2)`), both ends close-on-exec and, when `nonBlocking`, non-blocking.
    package static func pipe(nonBlocking: Bool = false) throws(Errno) -> Pipe {
        var ends: [CInt] = [-1, -1]
        let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
        _ = try valueOrErrno { viewfinder_pipe2(&ends, flags) }.get()
        return Pipe(read: FileDescriptor(unsafeAdopting: ends[0]), write: FileDescriptor(unsafeAdopting: ends[1]))
    }

    /// Closes the descriptor (`close(2)`), reporting the error a deferred write failure gives, once.
    ///
    /// `close` is not retried on `EINTR`: on Linux the descriptor is closed then all the same.
    package consuming func close() throws(Errno) {
        let descriptor = rawValue
        discard self
        _ = try valueOrErrno(retryOnInterrupt: false) { Glibc.close(descriptor) }.get()
    }

    /// Reads what is there, up to the buffer's size (`read(2)`).
    ///
    /// - Returns: The number of bytes read; 0 at the end of the file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// Writes some of `bytes` (`write(2)`).
    ///
    /// - Returns: The number of bytes written.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }.get()
    }

    /// Writes all of `bytes`, calling `write(2)` as often as it takes.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Writes all of `bytes` to a descriptor its owner lends, such as one kept behind a lock.
    package static func writeAll(_ bytes: [UInt8], to descriptor: CInt) throws(Errno) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in
                var offset = 0
                while offset < raw.count {
                    offset += try valueOrErrno {
                        Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    }.get()
                }
            }
        }.get()
    }

    /// Writes all of `bytes`; see ``writeAll(_:)-(UnsafeRawBufferPointer)``.
    package func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(raw) } }.get()
    }

    /// Reads the whole file from where it is to its end, refusing more than `limit` bytes.
    ///
    /// - Throws: ``Errno/fileTooLarge`` when the file holds more than `limit` bytes.
    package func readAll(limit: Int = 1 << 20) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try chunk.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try read(into: raw) } }
                .get()
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .fileTooLarge }
            bytes += chunk[..<count]
        }
    }

    /// Flushes what was written to the disk (`fsync(2)`).
    package func sync() throws(Errno) {
        _ = try valueOrErrno { fsync(rawValue) }.get()
    }
}
