extension PTPSession {
    /// The session's ID and the limits on what the camera may make it hold.
    ///
    /// How the camera is reached, and how long each wait for it lasts, belongs to the transport's configuration.
    public struct Configuration: Sendable {
        /// The PTP session ID to open.
        public var sessionID: UInt32
        /// The largest data-in phase collected in memory; larger ones need a streaming transaction.
        public var maximumInMemoryDataLength: Int
        /// The largest dataset the session decodes, such as DeviceInfo, a property description or a list of object
        /// handles; a larger one fails with `ViewfinderError/Code/malformedData` and the session stays open.
        public var maximumDatasetLength: Int
        /// How many events wait for the consumer of ``PTPSession/events`` before the oldest are dropped.
        public var eventBufferCapacity: Int
        /// How long a camera that answers DeviceBusy to its first requests after its session opens, as real bodies
        /// do while they wake, is asked again; once it has answered anything else, DeviceBusy is not retried.
        public var wakeUpTimeout: Duration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - sessionID: The PTP session ID to open.
        ///   - maximumInMemoryDataLength: The largest data-in phase collected in memory.
        ///   - maximumDatasetLength: The largest dataset decoded.
        ///   - eventBufferCapacity: How many unconsumed events are kept.
        ///   - wakeUpTimeout: How long a camera that is busy while it wakes is asked again.
        public init(
            sessionID: UInt32 = 1, maximumInMemoryDataLength: Int = 1 << 30, maximumDatasetLength: Int = 1 << 20,
            eventBufferCapacity: Int = 256, wakeUpTimeout: Duration = .seconds(3)
        ) {
            self.wakeUpTimeout = wakeUpTimeout
            self.sessionID = sessionID
            self.maximumInMemoryDataLength = maximumInMemoryDataLength
            self.maximumDatasetLength = maximumDatasetLength
            self.eventBufferCapacity = max(1, eventBufferCapacity)
        }
    }
}
