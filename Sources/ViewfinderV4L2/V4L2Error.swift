import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// A failed V4L2 system call: which call, on which device, and the `errno` it returned.
package struct V4L2Error: Error, Hashable, CustomStringConvertible {
    /// An `errno` value, with its C name and message.
    package struct Code: Error, Hashable, Sendable, CustomStringConvertible {
        /// The raw `errno` value.
        package var rawValue: CInt

        /// Wraps a raw `errno` value.
        package init(rawValue: CInt) {
            self.rawValue = rawValue
        }

        /// `EINVAL`: the driver rejected an argument, or an enumeration ran past its end.
        package static let invalidArgument = Code(rawValue: EINVAL)
        /// `EBUSY`: another process or descriptor owns the device's buffers.
        package static let busy = Code(rawValue: EBUSY)
        /// `ENODEV`: the device went away (unplugged or disconnected).
        package static let noDevice = Code(rawValue: ENODEV)
        /// `EIO`: the driver reported an I/O failure while streaming.
        package static let ioError = Code(rawValue: EIO)
        /// `EAGAIN`: nothing is ready yet on a non-blocking descriptor.
        package static let wouldBlock = Code(rawValue: EAGAIN)
        /// `EACCES`: the caller may not open the device node.
        package static let permissionDenied = Code(rawValue: EACCES)
        /// `ENOENT`: no such device node.
        package static let noSuchFile = Code(rawValue: ENOENT)
        /// `ENOTTY`: the driver does not implement the request.
        package static let notSupported = Code(rawValue: ENOTTY)

        /// The message `strerror(3)` gives for the value.
        package var description: String {
            guard let message = strerror(rawValue) else { return "errno \(rawValue)" }
            return String(cString: message) + " (errno \(rawValue))"
        }
    }

    /// The C name of the call that failed, such as `VIDIOC_DQBUF` or `open`.
    package var operation: String
    /// The device node the call was made on.
    package var path: String
    /// The `errno` the call returned.
    package var code: Code

    /// Describes a failed call.
    package init(operation: String, path: String, code: Code) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// A sentence naming the call, the device and the reason, with a hint for the common cases.
    package var description: String {
        "\(operation) on \(path) failed: \(code)" + hint
    }

    /// The error as Viewfinder reports it: the code chosen from `errno`, the call, the device and a hint.
    package var viewfinderError: ViewfinderError {
        let base = ViewfinderError.system(errno: code.rawValue, "\(operation) on \(path)")
        return ViewfinderError(base.code, base.message + hint, errno: code.rawValue)
    }

    private var hint: String {
        var text = ""
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
