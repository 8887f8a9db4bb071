import CV4L2
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The system calls the V4L2 layer makes on a device node, so tests can put a fake device behind them.
///
/// Every call reports failure as a negated `errno` value instead of setting `errno`, so a fake never has to touch
/// thread-local state. ``LinuxV4L2System`` is the real implementation, over ViewfinderSystem's `valueOrErrno`, which
/// retries every call on `EINTR`.
package protocol V4L2System: Sendable {
    /// Opens a device node (`open(2)`), returning the descriptor or a negated `errno`.
    func open(_ path: String, flags: CInt) -> CInt

    /// Closes a descriptor that ``open(_:flags:)`` returned (`close(2)`).
    func close(_ descriptor: CInt)

    /// Calls `ioctl(2)` with a request code and a pointer to its argument, returning the result or a negated `errno`.
    func ioctl(_ descriptor: CInt, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> CInt

    /// Maps a device buffer for reading and writing (`mmap(2)`), returning the address or a negated `errno`.
    func mmap(_ descriptor: CInt, length: Int, offset: Int64) -> Result<UnsafeMutableRawPointer, Errno>

    /// Unmaps a buffer that ``mmap(_:length:offset:)`` mapped (`munmap(2)`).
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)

    /// Waits for events on descriptors (`poll(2)`), returning the number of ready descriptors or a negated `errno`.
    ///
    /// The descriptors may mix device descriptors from ``open(_:flags:)`` with ordinary descriptors such as pipes.
    func poll(_ descriptors: inout [pollfd], timeout milliseconds: CInt) -> CInt

    /// The names in a directory, without `.` and `..` (`opendir(3)`, `readdir(3)`); empty when it cannot be read.
    func contentsOfDirectory(_ path: String) -> [String]
}

/// The system calls of the running Linux kernel.
package struct LinuxV4L2System: V4L2System {
    /// Creates the real system-call layer.
    package init() {}

    package func open(_ path: String, flags: CInt) -> CInt {
        Self.negated(valueOrErrno { Glibc.open(path, flags | O_CLOEXEC) })
    }

    package func close(_ descriptor: CInt) {
        _ = valueOrErrno(retryOnInterrupt: false) { Glibc.close(descriptor) }
    }

    package func ioctl(_ descriptor: CInt, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> CInt {
        Self.negated(valueOrErrno { Glibc.ioctl(descriptor, request, argument) })
    }

    /// A call's result, or its `errno` negated, as the protocol reports failures.
    private static func negated(_ result: Result<CInt, Errno>) -> CInt {
        switch result {
        case .success(let value): value
        case .failure(let error): -error.rawValue
        }
    }

    package func mmap(_ descriptor: CInt, length: Int, offset: Int64) -> Result<UnsafeMutableRawPointer, Errno> {
        var error: CInt = 0
        guard let address = cv4l2_mmap(descriptor, length, offset, &error) else {
            return .failure(Errno(rawValue: error))
        }
        return .success(address)
    }

    package func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        _ = Glibc.munmap(address, length)
    }

    package func poll(_ descriptors: inout [pollfd], timeout milliseconds: CInt) -> CInt {
        let count = nfds_t(descriptors.count)
        return Self.negated(
            valueOrErrno {
                descriptors.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, count, milliseconds) }
            })
    }

    package func contentsOfDirectory(_ path: String) -> [String] {
        Directory.names(in: path)
    }
}
