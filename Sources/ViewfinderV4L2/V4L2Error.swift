import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A failed V4L2 system call: which call, on which device, and the `errno` it returned.
package struct V4L2Error: Error, Hashable, CustomStringConvertible {
    /// The C name of the call that failed, such as `VIDIOC_DQBUF` or `open`.
    package var operation: String
    /// The device node the call was made on.
    package var path: String
    /// The `errno` the call returned.
    package var code: Errno

    /// Describes a failed call.
    package init(operation: String, path: String, code: Errno) {
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
        let base = ViewfinderError(code, while: "\(operation) on \(path)")
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

extension WakeableThread {
    /// Starts a thread for a V4L2 loop, its failure told as a ``V4L2Error`` that names the thread.
    static func forV4L2(name: String, body: @escaping @Sendable (_ wakeup: Wakeup) -> Void) throws(V4L2Error)
        -> WakeableThread
    {
        do {
            return try WakeableThread(name: name, body: body)
        } catch {
            throw V4L2Error(operation: "pthread_create", path: name, code: error)
        }
    }
}
