#if canImport(Glibc)
import Glibc
#endif

extension PTPIPSession {
    /// How a session connects and how long it waits.
    public struct Configuration: Sendable {
        /// The TCP port of the camera; 15740 is the PTP/IP default.
        public var port: UInt16
        /// The name the camera shows for this client.
        public var clientName: String
        /// This client's identifier; cameras that pair with a client remember it.
        public var clientGUID: PTPIPGUID
        /// The PTP session ID to open.
        public var sessionID: UInt32
        /// The longest wait for a TCP connection to open.
        public var connectTimeout: Duration
        /// The longest wait for the camera on any read or write during a transaction.
        public var responseTimeout: Duration
        /// The largest data-in phase collected in memory; larger ones need a streaming transaction.
        public var maximumInMemoryDataLength: Int
        /// The largest dataset the session decodes, such as DeviceInfo, a property description or a list of object
        /// handles; a larger one fails with `ViewfinderError/Code/malformedData` and the session stays open.
        public var maximumDatasetLength: Int
        /// The longest packet other than Data or EndData the session accepts.
        public var maximumControlPacketLength: Int
        /// The size of the Data packets data-out phases are split into.
        public var dataOutChunkSize: Int
        /// How many events wait for the consumer of ``PTPIPSession/events`` before the oldest are dropped.
        public var eventBufferCapacity: Int
        /// How long the event connection may stay silent before the session probes the camera on it.
        ///
        /// A camera that leaves the network without closing its connections (out of WiFi range, battery pulled)
        /// sends nothing more, and a quiet event connection looks the same. After this long without a packet, the
        /// session sends a PTP/IP probe request on the event connection; a camera that does not answer within
        /// ``responseTimeout`` ends the session with `ViewfinderError/Code/timeout`. `nil`, the default, turns
        /// probing off; ``PTPIPCamera`` turns it on (``PTPIPCamera/Configuration/eventProbeInterval``).
        public var eventProbeInterval: Duration?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - port: The camera's TCP port.
        ///   - clientName: The name the camera shows; the host name by default.
        ///   - clientGUID: This client's identifier; random by default.
        ///   - sessionID: The PTP session ID to open.
        ///   - connectTimeout: The longest wait for a TCP connection.
        ///   - responseTimeout: The longest wait for the camera on any read or write.
        ///   - maximumInMemoryDataLength: The largest data-in phase collected in memory.
        ///   - maximumDatasetLength: The largest dataset decoded.
        ///   - maximumControlPacketLength: The longest packet other than Data or EndData accepted.
        ///   - dataOutChunkSize: The size of the Data packets data-out phases are split into.
        ///   - eventBufferCapacity: How many unconsumed events are kept.
        ///   - eventProbeInterval: How long the event connection may stay silent before the camera is probed;
        ///     `nil` for never.
        public init(
            port: UInt16 = 15740, clientName: String = Configuration.hostName, clientGUID: PTPIPGUID = .random(),
            sessionID: UInt32 = 1, connectTimeout: Duration = .seconds(5), responseTimeout: Duration = .seconds(10),
            maximumInMemoryDataLength: Int = 1 << 30, maximumDatasetLength: Int = 1 << 20,
            maximumControlPacketLength: Int = 1 << 20,
            dataOutChunkSize: Int = 1 << 20, eventBufferCapacity: Int = 256,
            eventProbeInterval: Duration? = nil
        ) {
            self.port = port
            self.clientName = clientName
            self.clientGUID = clientGUID
            self.sessionID = sessionID
            self.connectTimeout = connectTimeout
            self.responseTimeout = responseTimeout
            self.maximumInMemoryDataLength = maximumInMemoryDataLength
            self.maximumDatasetLength = maximumDatasetLength
            self.maximumControlPacketLength = maximumControlPacketLength
            self.dataOutChunkSize = max(1, dataOutChunkSize)
            self.eventBufferCapacity = max(1, eventBufferCapacity)
            self.eventProbeInterval = eventProbeInterval
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
