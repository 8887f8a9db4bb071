import ViewfinderPTP

extension FujiWiFiTransport {
    /// How a Fujifilm WiFi transport connects, who it says it is, and how long it waits.
    public struct Configuration: Sendable {
        /// The camera's command port, 55740.
        public var commandPort: UInt16
        /// The camera's event port, 55741, which it opens once remote capture starts.
        public var eventPort: UInt16
        /// The camera's live view port, 55742, on which it pushes JPEG frames once remote capture starts.
        public var liveViewPort: UInt16
        /// The name the camera shows for this computer, at most ``FujiWiFiPacket/maximumNameLength`` units of it.
        public var clientName: String
        /// This computer's identifier.
        public var clientGUID: PTPIPGUID
        /// The longest wait for a TCP connection to open.
        public var connectTimeout: Duration
        /// The longest wait for the camera on any read or write: the longest a transaction may make no progress.
        public var responseTimeout: Duration
        /// How long to keep trying the event or live view port while the camera refuses it, as one does until it has
        /// opened the port after remote capture starts.
        public var channelOpenTimeout: Duration
        /// The pause before the init is sent again on the same connection after the camera refused it, as the first
        /// attempt of Fujifilm's own software always is.
        public var initRetryPause: Duration
        /// The longest live view frame accepted.
        public var maximumLiveViewFrameLength: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - commandPort: The command port.
        ///   - eventPort: The event port.
        ///   - liveViewPort: The live view port.
        ///   - clientName: The name the camera shows; the host name by default.
        ///   - clientGUID: This computer's identifier; one made from the machine's identity by default.
        ///   - connectTimeout: The longest wait for a TCP connection.
        ///   - responseTimeout: The longest the camera may make no progress.
        ///   - channelOpenTimeout: How long to keep trying an event or live view port the camera refuses.
        ///   - initRetryPause: The pause before the init is sent again after a refusal.
        ///   - maximumLiveViewFrameLength: The longest live view frame accepted.
        public init(
            commandPort: UInt16 = 55740, eventPort: UInt16 = 55741, liveViewPort: UInt16 = 55742,
            clientName: String = PTPIPTransport.Configuration.hostName, clientGUID: PTPIPGUID = .thisComputer,
            connectTimeout: Duration = .seconds(5), responseTimeout: Duration = .seconds(20),
            channelOpenTimeout: Duration = .seconds(3), initRetryPause: Duration = .milliseconds(500),
            maximumLiveViewFrameLength: Int = 8 << 20
        ) {
            self.commandPort = commandPort
            self.eventPort = eventPort
            self.liveViewPort = liveViewPort
            self.clientName = clientName
            self.clientGUID = clientGUID
            self.connectTimeout = connectTimeout
            self.responseTimeout = responseTimeout
            self.channelOpenTimeout = channelOpenTimeout
            self.initRetryPause = initRetryPause
            self.maximumLiveViewFrameLength = maximumLiveViewFrameLength
        }

        /// The configuration for a camera whose command port is `port`: the event port the next one and the live view
        /// port the one after, as Fujifilm's are.
        public static func ports(from port: UInt16, base: Configuration = Configuration()) -> Configuration {
            var configuration = base
            configuration.commandPort = port
            configuration.eventPort = port &+ 1
            configuration.liveViewPort = port &+ 2
            return configuration
        }
    }
}
