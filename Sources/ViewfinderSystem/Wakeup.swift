#if canImport(Glibc)
import Glibc
#endif

/// A descriptor one thread makes readable to wake another that waits for it in ``Poll``: a non-blocking pipe.
///
/// ```swift
/// let wakeup = try Wakeup()
/// // the waiting thread
/// let ready = try Poll.wait([.init(socket, for: Poll.readable), .init(wakeup.descriptor, for: Poll.readable)],
///                           until: nil)
/// // another thread
/// wakeup.signal()
/// ```
package final class Wakeup: Sendable {
    private let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    /// Creates the pipe.
    ///
    /// - Throws: The `errno` of `pipe2(2)`, such as ``Errno/tooManyOpenFiles``.
    package init() throws(Errno) {
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        readEnd = pipe.read
        writeEnd = pipe.write
    }

    /// The end to wait on for ``Poll/readable``; valid while the wake-up lives.
    package var descriptor: CInt { readEnd.rawValue }

    /// Wakes the waiter; signals that come before it drains them count as one.
    package func signal() {
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up.
        _ = valueOrErrno { Glibc.write(writeEnd.rawValue, &byte, 1) }
    }

    /// Clears the signals so far.
    package func drain() {
        var bytes = (UInt64(0), UInt64(0))
        while (try? valueOrErrno({ Glibc.read(readEnd.rawValue, &bytes, MemoryLayout.size(ofValue: bytes)) }).get())
            ?? 0 > 0
        {}
    }
}
