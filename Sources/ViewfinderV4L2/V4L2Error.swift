#if canImport(Glibc)
    import Glibc
#endif

/// A failed V4L2 system call: which call, on which device, and the `errno` it returned.
public struct V4L2Error: Error, Hashable, CustomStringConvertible {
    /// An `errno` value, with its C name and message.
    public struct Code: Error, Hashable, Sendable, CustomStringConvertible {
        /// The raw `errno` value.
        public var rawValue: CInt

        /// Wraps a raw `errno` value.
        public init(rawValue: CInt) {
            self.rawValue = rawValue
        }

        /// `EINVAL`: the driver rejected an argument, or an enumeration ran past its end.
        public static let invalidArgument = Code(rawValue: EINVAL)
        /// `EBUSY`: another process or descriptor owns the device's buffers.
        public static let busy = Code(rawValue: EBUSY)
        /// `ENODEV`: the device went away (unplugged or disconnected).
        public static let noDevice = Code(rawValue: ENODEV)
        /// `EIO`: the driver reported an I/O failure while streaming.
        public static let ioError = Code(rawValue: EIO)
        /// `EAGAIN`: nothing is ready yet on a non-blocking descriptor.
        public static let wouldBlock = Code(rawValue: EAGAIN)
        /// `EACCES`: the caller may not open the device node.
        public static let permissionDenied = Code(rawValue: EACCES)
        /// `ENOENT`: no such device node.
        public static let noSuchFile = Code(rawValue: ENOENT)
        /// `ENOTTY`: the driver does not implement the request.
        public static let notSupported = Code(rawValue: ENOTTY)

        /// The message `strerror(3)` gives for the value.
        public var description: String {
            guard let message = strerror(rawValue) else { return "errno \(rawValue)" }
            return String(cString: message) + " (errno \(rawValue))"
        }
    }

    /// The C name of the call that failed, such as `VIDIOC_DQBUF` or `open`.
    public var operation: String
    /// The device node the call was made on.
    public var path: String
    /// The `errno` the call returned.
    public var code: Code

    /// Describes a failed call.
    public init(operation: String, path: String, code: Code) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// A sentence naming the call, the device and the reason, with a hint for the common cases.
    public var description: String {
        var text = "\(operation) on \(path) failed: \(code)"
        switch code {
        case .permissionDenied:
            text += "; add the user to the 'video' group or check the node's permissions"
        case .busy:
            text += "; another program is capturing from this device, close it and try again"
        case .noDevice:
            text += "; the device was unplugged or disconnected"
        default:
            break
        }
        return text
    }
}
