#if canImport(Glibc)
import Glibc
#endif

/// An error number a system call set, with its C name and the message `strerror(3)` gives.
///
/// Modelled on swift-system's `Errno`: calls made through ``valueOrErrno(retryOnInterrupt:_:)`` throw it, and the
/// layers above turn it into the error their callers see, naming what was being done.
///
/// ```swift
/// let descriptor = try valueOrErrno { open(path, O_RDONLY | O_CLOEXEC) }.get()
/// ```
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    package var rawValue: CInt

    /// Wraps a raw `errno` value.
    package init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The calling thread's current `errno`.
    package static var current: Errno { Errno(rawValue: errno) }

    /// `EINTR`: a signal interrupted the call.
    package static let interrupted = Errno(rawValue: EINTR)
    /// `EAGAIN`: nothing is ready yet on a non-blocking descriptor.
    package static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `EINVAL`: an argument was rejected, or an enumeration ran past its end.
    package static let invalidArgument = Errno(rawValue: EINVAL)
    /// `EBUSY`: another process or descriptor holds the resource.
    package static let busy = Errno(rawValue: EBUSY)
    /// `ENODEV`: the device went away (unplugged or disconnected).
    package static let noDevice = Errno(rawValue: ENODEV)
    /// `EIO`: the device or driver reported an I/O failure.
    package static let ioError = Errno(rawValue: EIO)
    /// `EACCES`: the caller may not open or use the file.
    package static let permissionDenied = Errno(rawValue: EACCES)
    /// `ENOENT`: no such file or directory.
    package static let noSuchFile = Errno(rawValue: ENOENT)
    /// `ENOTTY`: the driver does not implement the request.
    package static let notSupported = Errno(rawValue: ENOTTY)
    /// `ETIMEDOUT`: the peer or device did not answer in time.
    package static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// `EMFILE`: the process has as many descriptors open as it may.
    package static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// `ENFILE`: the system has as many files open as it may.
    package static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    /// `ECONNRESET`: the peer reset the connection.
    package static let connectionReset = Errno(rawValue: ECONNRESET)
    /// `EPIPE`: the peer closed its end.
    package static let brokenPipe = Errno(rawValue: EPIPE)
    /// `EFBIG`: a file is larger than the caller allows.
    package static let fileTooLarge = Errno(rawValue: EFBIG)

    /// The C name, such as `EAGAIN`, for the common values; `errno N` for the others.
    package var name: String {
        switch rawValue {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EBUSY: "EBUSY"
        case EEXIST: "EEXIST"
        case ENODEV: "ENODEV"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case EFBIG: "EFBIG"
        case EINVAL: "EINVAL"
        case ENFILE: "ENFILE"
        case EMFILE: "EMFILE"
        case ENOTTY: "ENOTTY"
        case ENOSPC: "ENOSPC"
        case EPIPE: "EPIPE"
        case ETIMEDOUT: "ETIMEDOUT"
        case ECONNREFUSED: "ECONNREFUSED"
        case ECONNRESET: "ECONNRESET"
        case ECONNABORTED: "ECONNABORTED"
        case EADDRINUSE: "EADDRINUSE"
        case EADDRNOTAVAIL: "EADDRNOTAVAIL"
        case ENETUNREACH: "ENETUNREACH"
        case EHOSTUNREACH: "EHOSTUNREACH"
        case ENOTCONN: "ENOTCONN"
        case EPROTO: "EPROTO"
        case ENOSYS: "ENOSYS"
        case ESHUTDOWN: "ESHUTDOWN"
        default: "errno \(rawValue)"
        }
    }

    /// The message `strerror(3)` gives, then the C name, such as `Connection refused (ECONNREFUSED)`.
    package var description: String {
        guard let message = strerror(rawValue) else { return name }
        return "\(String(cString: message)) (\(name))"
    }
}

/// Runs a system call that returns -1 and sets `errno` on failure, retrying it while a signal interrupts it.
///
/// Modelled on swift-system's helper of the same name.
///
/// ```swift
/// let count = try valueOrErrno { read(descriptor, buffer.baseAddress, buffer.count) }.get()
/// ```
///
/// - Parameters:
///   - retryOnInterrupt: Whether to call again after `EINTR`; `close(2)` must not be retried.
///   - call: The call.
/// - Returns: The call's result, or the `errno` it set.
package func valueOrErrno<Value: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ call: () -> Value
) -> Result<Value, Errno> {
    while true {
        let value = call()
        if value != -1 { return .success(value) }
        let error = Errno(rawValue: errno)
        guard retryOnInterrupt, error == .interrupted else { return .failure(error) }
    }
}

/// Runs a call that reports failure as a negated `errno` value instead of setting `errno`, as the C shims and the
/// kernel's own interfaces do, and returns the value or that `errno`.
package func valueOrNegatedErrno<Value: FixedWidthInteger & SignedInteger>(_ value: Value) -> Result<Value, Errno> {
    value < 0 ? .failure(Errno(rawValue: CInt(truncatingIfNeeded: -value))) : .success(value)
}
