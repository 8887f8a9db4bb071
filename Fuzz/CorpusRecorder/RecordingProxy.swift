import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

/// The bytes of one proxied connection, in each direction.
struct RecordedConnection: Sendable {
    /// What was running when the connection opened, such as `gphoto2-summary`.
    var label: String
    /// The connection's position among those the proxy accepted.
    var index: Int
    /// What the client sent.
    var fromClient: [UInt8]
    /// What the camera sent.
    var fromCamera: [UInt8]
}

/// A TCP proxy on loopback that forwards every connection to a camera and records both directions.
final class RecordingProxy: Sendable {
    private struct State {
        var label = "unlabelled"
        var count = 0
        var isStopping = false
    }

    /// The port clients connect to.
    let port: UInt16
    private let listener: Socket
    private let cameraPort: UInt16
    private let state = Locked(State())
    private let recorded: @Sendable (RecordedConnection) -> Void
    private let acceptor: PlatformThread

    /// Starts listening on a free loopback port, forwarding to `cameraPort`.
    ///
    /// - Parameter recorded: Called with each connection once both directions have ended.
    init(forwardingTo cameraPort: UInt16, recorded: @escaping @Sendable (RecordedConnection) -> Void) throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        self.cameraPort = cameraPort
        self.recorded = recorded
        let listener = listener
        let state = state
        acceptor = try PlatformThread(name: "proxy-accept") {
            while !state.withLock({ $0.isStopping }) {
                guard let client = try? listener.accept(timeout: .milliseconds(200)) else { continue }
                let (label, index) = state.withLock { state in
                    state.count += 1
                    return (state.label, state.count)
                }
                try? PlatformThread.detach(name: "proxy-conn") {
                    Self.forward(client, to: cameraPort, label: label, index: index, recorded: recorded)
                }
            }
        }
    }

    /// Labels the connections that open from now on.
    func label(_ label: String) {
        state.withLock { $0.label = label }
    }

    /// Stops accepting connections.
    func stop() {
        state.withLock { $0.isStopping = true }
        acceptor.join()
        listener.close()
    }

    private static func forward(
        _ client: Socket, to cameraPort: UInt16, label: String, index: Int,
        recorded: @Sendable (RecordedConnection) -> Void
    ) {
        guard let camera = try? Socket.connect(host: "127.0.0.1", port: cameraPort, timeout: .seconds(5)) else {
            client.close()
            return
        }
        client.setNoDelay()
        camera.setNoDelay()
        let fromCamera = Locked<[UInt8]>([])
        let cameraToClient = try? PlatformThread(name: "proxy-pump") {
            fromCamera.withLock { $0 = copy(from: camera, to: client) }
        }
        let fromClient = copy(from: client, to: camera)
        cameraToClient?.join()
        client.close()
        camera.close()
        recorded(
            RecordedConnection(
                label: label, index: index, fromClient: fromClient, fromCamera: fromCamera.withLock { $0 }))
    }

    /// Copies `source` to `destination` until `source` ends, then ends `destination`'s stream too.
    ///
    /// - Returns: The bytes copied.
    private static func copy(from source: Socket, to destination: Socket) -> [UInt8] {
        var copied: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                try? source.receive(into: $0, timeout: .seconds(60), while: "proxying")
            }
            guard let count else { break }
            copied += buffer[..<count]
            let sent: ()? = buffer.withUnsafeBytes {
                try? destination.send(
                    [UnsafeRawBufferPointer(rebasing: $0[..<count])], timeout: .seconds(60), while: "proxying")
            }
            guard sent != nil else { break }
        }
        destination.shutdownSending()
        return copied
    }
}
