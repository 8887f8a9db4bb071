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
        /// The longest wait for the camera on any read or write during a transaction, and for the handshake.
        public var responseTimeout: Duration
        /// The longest packet other than Data or EndData accepted.
        public var maximumControlPacketLength: Int
        /// The size of the Data packets data-out phases are split into.
        public var dataOutChunkSize: Int
        /// How long the event connection may stay silent before the transport probes the camera on it.
        ///
        /// A camera that leaves the network without closing its connections (out of WiFi range, battery pulled)
        /// sends nothing more, and a quiet event connection looks the same. After this long without a packet, the
        /// transport sends a PTP/IP probe request on the event connection; a camera that does not answer within
        /// ``responseTimeout`` ends the session with `ViewfinderError/Code/timeout`. `nil` turns probing off, for a
        /// camera that does not answer probes.
        public var eventProbeInterval: Duration?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - port: The camera's TCP port.
        ///   - clientName: The name the camera shows; the host name by default.
        ///   - clientGUID: This computer's identifier; one made from the machine's identity by default.
        ///   - connectTimeout: The longest wait for a TCP connection.
        ///   - responseTimeout: The longest wait for the camera on any read or write.
        ///   - maximumControlPacketLength: The longest packet other than Data or EndData accepted.
        ///   - dataOutChunkSize: The size of the Data packets data-out phases are split into.
        ///   - eventProbeInterval: How long the event connection may stay silent before the camera is probed;
        ///     `nil` for never.
        public init(
            port: UInt16 = 15740, clientName: String = Configuration.hostName,
            clientGUID: PTPIPGUID = .thisComputer, connectTimeout: Duration = .seconds(5),
            responseTimeout: Duration = .seconds(10), maximumControlPacketLength: Int = 1 << 20,
            dataOutChunkSize: Int = 1 << 20, eventProbeInterval: Duration? = .seconds(10)
        ) {
            self.port = port
            self.clientName = clientName
            self.clientGUID = clientGUID
            self.connectTimeout = connectTimeout
            self.responseTimeout = responseTimeout
            self.maximumControlPacketLength = maximumControlPacketLength
            self.dataOutChunkSize = max(1, dataOutChunkSize)
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
