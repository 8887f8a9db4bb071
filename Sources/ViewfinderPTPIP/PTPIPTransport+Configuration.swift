import ViewfinderPTP

#if canImport(Glibc)
import Glibc
#endif

extension PTPIPTransport {
    /// How a PTP/IP transport connects, who it says it is, and how long it waits.
    public struct Configuration: Sendable {
        /// The TCP port of the camera; 15740 is the PTP/IP default.
        public var port: UInt16
        /// The name the camera shows for this computer; cameras that pair show it when they ask.
        public var clientName: String
        /// This computer's identifier; cameras that pair with a client remember it, so it stays the same from one
        /// run to the next unless set.
        public var clientGUID: PTPIPGUID
        /// The longest wait for a TCP connection to open.
        public var connectTimeout: Duration
        /// The longest wait for the camera on any read or write during a transaction, and for the handshake: the
        /// longest a transaction may make no progress, however long its data phase lasts (20 s, as libgphoto2 waits).
        public var responseTimeout: Duration
        /// The longest packet other than Data or EndData accepted.
        public var maximumControlPacketLength: Int
        /// The size of the Data packets data-out phases are split into.
        public var dataOutChunkSize: Int
        /// How long to keep trying a camera that refuses the connection as busy (an InitFail packet), as one still
        /// ending a previous client's session does: the handshake is tried again after 100 ms, then after pauses
        /// that double, until this much time has passed.
        public var busyRetryTimeout: Duration
        /// How long the event connection may stay silent before the transport probes the camera on it; `nil` (the
        /// default) for never.
        ///
        /// A camera that leaves the network without closing its connections (out of WiFi range, battery pulled)
        /// sends nothing more, and a quiet event connection looks the same. After this long without a packet, the
        /// transport sends a PTP/IP probe request on the event connection. A camera that has answered a probe and
        /// does not answer the next within ``responseTimeout`` ends the session with `ViewfinderError/Code/timeout`;
        /// one that does not answer the first is taken not to speak probes, and is not probed again. Many real
        /// cameras do not speak probes, and libgphoto2 never sends them, so probing is off unless asked for; without
        /// it, a camera that has gone is noticed at the next transaction's timeout.
        public var eventProbeInterval: Duration?
        /// How long a handshake may go unanswered before a connection given a user intervention handler
        /// (`Camera/connect(options:userIntervention:)`) tells it that the camera asks its user (2 s by default).
        ///
        /// Cameras answer a computer they know at once, and leave one they do not know waiting while they ask on their
        /// screen; nothing on the wire tells the two apart, so a slow answer is taken as the question.
        public var userInterventionDelay: Duration
        /// How long a connection given a user intervention handler waits in all for the camera's user to confirm it
        /// (a minute by default); connections without a handler wait ``responseTimeout``.
        public var userInterventionTimeout: Duration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - port: The camera's TCP port.
        ///   - clientName: The name the camera shows; the host name by default.
        ///   - clientGUID: This computer's identifier; one made from the machine's identity by default.
        ///   - connectTimeout: The longest wait for a TCP connection.
        ///   - responseTimeout: The longest wait for the camera on any read or write: the longest it may make no
        ///     progress in a transaction, a data phase however long.
        ///   - maximumControlPacketLength: The longest packet other than Data or EndData accepted.
        ///   - dataOutChunkSize: The size of the Data packets data-out phases are split into.
        ///   - eventProbeInterval: How long the event connection may stay silent before the camera is probed;
        ///     `nil` (the default) for never.
        ///   - busyRetryTimeout: How long to keep trying a camera that says it is busy, with growing pauses.
        ///   - userInterventionDelay: How long an unanswered handshake takes to be reported as the camera asking its
        ///     user.
        ///   - userInterventionTimeout: How long the camera's user has to confirm the connection.
        public init(
            port: UInt16 = 15740, clientName: String = Configuration.hostName,
            clientGUID: PTPIPGUID = .thisComputer, connectTimeout: Duration = .seconds(5),
            responseTimeout: Duration = .seconds(20), maximumControlPacketLength: Int = 1 << 20,
            dataOutChunkSize: Int = 1 << 20, eventProbeInterval: Duration? = nil,
            busyRetryTimeout: Duration = .seconds(3), userInterventionDelay: Duration = .seconds(2),
            userInterventionTimeout: Duration = .seconds(60)
        ) {
            self.port = port
            self.clientName = clientName
            self.clientGUID = clientGUID
            self.connectTimeout = connectTimeout
            self.responseTimeout = responseTimeout
            self.maximumControlPacketLength = maximumControlPacketLength
            self.dataOutChunkSize = max(1, dataOutChunkSize)
            self.eventProbeInterval = eventProbeInterval
            self.busyRetryTimeout = busyRetryTimeout
            self.userInterventionDelay = userInterventionDelay
            self.userInterventionTimeout = userInterventionTimeout
        }

        /// This machine's host name, or `Viewfinder` when it has none.
        public static var hostName: String {
            var name = [CChar](repeating: 0, count: 256)
            guard gethostname(&name, name.count - 1) == 0 else { return "Viewfinder" }
            let text = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return text.isEmpty ? "Viewfinder" : text
        }
    }
}
