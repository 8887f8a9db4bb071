#if canImport(Glibc)
import Glibc
#endif

/// The one error type Viewfinder throws: a code that says what kind of failure it is, and a message for people.
///
/// Match on ``code`` to react to a kind of failure, and show ``description`` to people:
///
/// ```swift
/// do {
///     try await property.setValue(.iso(800))
/// } catch let error as ViewfinderError where error.code == .invalidPropertyValue {
///     print("The camera refused that ISO: \(error)")
/// }
/// ```
public struct ViewfinderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure an error is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case notConnected
            case connectionFailed
            case pairingRequired
            case disconnected
            case deviceBusy
            case deviceRemoved
            case permissionDenied
            case invalidArgument
            case invalidPropertyValue
            case notAvailable
            case notFound
            case timeout
            case cancelled
            case unsupportedPixelFormat
            case noValidFormat
            case alreadyRunning
            case malformedData
            case protocolFailure
            case io
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The operation needs a connection that is not there.
        public static let notConnected = Code(.notConnected)
        /// A connection could not be made.
        public static let connectionFailed = Code(.connectionFailed)
        /// The camera refuses this computer until it is paired with it on the camera; the message says how.
        public static let pairingRequired = Code(.pairingRequired)
        /// The peer or device went away while it was in use.
        public static let disconnected = Code(.disconnected)
        /// The device is busy, for example in use by another program.
        public static let deviceBusy = Code(.deviceBusy)
        /// The device was removed.
        public static let deviceRemoved = Code(.deviceRemoved)
        /// The operating system refused access.
        public static let permissionDenied = Code(.permissionDenied)
        /// A caller passed a value the operation cannot use.
        public static let invalidArgument = Code(.invalidArgument)
        /// A property value is not one the camera or device accepts.
        public static let invalidPropertyValue = Code(.invalidPropertyValue)
        /// The camera or device does not offer this function.
        public static let notAvailable = Code(.notAvailable)
        /// Something that was asked for does not exist.
        public static let notFound = Code(.notFound)
        /// An operation did not finish in time.
        public static let timeout = Code(.timeout)
        /// An operation was cancelled.
        public static let cancelled = Code(.cancelled)
        /// Frames are in a pixel format the operation does not handle.
        public static let unsupportedPixelFormat = Code(.unsupportedPixelFormat)
        /// No format of the device can be used.
        public static let noValidFormat = Code(.noValidFormat)
        /// The operation is already running.
        public static let alreadyRunning = Code(.alreadyRunning)
        /// Data from a device, a file or a network peer is not well formed.
        public static let malformedData = Code(.malformedData)
        /// The camera answered an operation with a failure response code.
        public static let protocolFailure = Code(.protocolFailure)
        /// A system call failed; ``ViewfinderError/errno`` says why.
        public static let io = Code(.io)

        /// The code's name, as written in Swift.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, for people: what was being done and, where it helps, what to try.
    public let message: String
    /// The response code the camera answered with, for ``Code/protocolFailure``.
    public let responseCode: UInt16?
    /// The system error number, for ``Code/io`` and other failures of system calls.
    public let errno: Int32?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: What went wrong, for people.
    ///   - responseCode: The camera's response code, if the camera answered with one.
    ///   - errno: The system error number, if a system call failed.
    public init(_ code: Code, _ message: String, responseCode: UInt16? = nil, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.responseCode = responseCode
        self.errno = errno
    }

    /// Creates an error for a failed system call, choosing the code from the error number.
    ///
    /// - Parameters:
    ///   - errno: The error number the call set.
    ///   - operation: What was being done, for example `"VIDIOC_STREAMON on /dev/video0"`.
    public static func system(errno: Int32, _ operation: String) -> ViewfinderError {
        let code: Code
        switch errno {
        case EBUSY: code = .deviceBusy
        case ENODEV, ENXIO: code = .deviceRemoved
        case EACCES, EPERM: code = .permissionDenied
        case ENOENT: code = .notFound
        case ETIMEDOUT: code = .timeout
        case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH: code = .connectionFailed
        case ECONNRESET, EPIPE: code = .disconnected
        case EINVAL: code = .invalidArgument
        default: code = .io
        }
        let reason = String(cString: strerror(errno))
        return ViewfinderError(code, "\(operation) failed: \(reason) (errno \(errno))", errno: errno)
    }

    /// The code and the message, for people.
    public var description: String {
        var text = "\(code): \(message)"
        if let responseCode {
            text += " [response code 0x\(String(responseCode, radix: 16, uppercase: true))]"
        }
        return text
    }
}
