/// One host of a rig as its coordinator sees it: what its agent last said of itself, and how far its clock is.
public struct RigHost: Sendable, Equatable {
    /// One camera of the host.
    public struct Camera: Sendable, Equatable {
        /// The camera's name on its host.
        public var name: String
        /// The maker, as the camera says.
        public var manufacturer: String?
        /// The model, as the camera says.
        public var model: String?
        /// The serial number, as the camera says.
        public var serialNumber: String?
        /// Whether the host is connected to it.
        public var isConnected: Bool
    }

    /// The host's name in the rig.
    public var name: String
    /// Whether its agent is connected to the broker: `false` once its last will arrived, or it said goodbye.
    public var isOnline: Bool
    /// The agent's program and version.
    public var agentVersion: String?
    /// The host's cameras.
    public var cameras: [Camera]
    /// What the host says of its clock.
    public var clock: RigClockStatus?
    /// How far its clock is from the coordinator's, once measured (``NetworkRig/measureClocks(samples:timeout:)``).
    public var clockEstimate: RigClockEstimate?
    /// Where it serves its pictures.
    public var filesURL: String?

    /// The name a camera of this host has in a ``NetworkRig``'s reports: host, slash, camera, such as `h03/cam1`.
    public func reportName(of camera: String) -> String { "\(name)/\(camera)" }

    /// The host as its record describes it.
    init(record: RigWire.HostState) {
        name = record.host
        isOnline = record.online
        agentVersion = record.agent
        cameras = (record.cameras ?? []).map { camera in
            Camera(
                name: camera.name, manufacturer: camera.manufacturer, model: camera.model,
                serialNumber: camera.serial, isConnected: camera.connected)
        }
        clock = record.clock.flatMap(RigClockStatus.init(wire:))
        filesURL = record.files?.url
    }
}
