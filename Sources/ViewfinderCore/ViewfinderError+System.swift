import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension ViewfinderError {
    /// The error for a failed system call: the code chosen from the error number, what was being done, and a hint
    /// for the failures people can fix.
    ///
    /// - Parameters:
    ///   - errno: The error number the call set.
    ///   - activity: What was being done, such as `"VIDIOC_STREAMON on /dev/video0"`.
    package init(_ errno: Errno, while activity: String) {
        let base = ViewfinderError.system(errno: errno.rawValue, activity)
        self.init(base.code, base.message + Self.hint(for: errno), errno: errno.rawValue)
    }

    /// The error for a failed socket operation, with the code its reason calls for.
    package init(_ error: SocketError) {
        switch error.reason {
        case .system(let errno) where errno == .permissionDenied && error.activity.hasPrefix("listening"):
            self.init(
                .permissionDenied,
                "\(error.activity) failed: \(errno); ports below 1024 need privileges: choose a higher one",
                errno: errno.rawValue)
        case .system(let errno):
            self.init(errno, while: error.activity)
        case .timedOut(let timeout):
            self.init(
                .timeout,
                "no progress within \(timeout.inSeconds) s while \(error.activity); the peer stopped answering")
        case .closedByPeer:
            self.init(.disconnected, "the peer at \(error.endpoint) closed the connection while \(error.activity)")
        case .unresolvable(let message):
            self.init(.connectionFailed, "cannot resolve \(error.endpoint): \(message); check the address")
        case .notNumeric:
            self.init(.invalidArgument, "'\(error.endpoint)' is not a numeric IPv4 or IPv6 address")
        }
    }

    private static func hint(for errno: Errno) -> String {
        switch errno.rawValue {
        case EADDRINUSE: "; another program uses the port: choose another one"
        case EADDRNOTAVAIL: "; the address is not one of this machine's"
        case EMFILE, ENFILE: "; too many files are open: close some, or raise the limit (ulimit -n)"
        default: ""
        }
    }
}
