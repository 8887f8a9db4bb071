import Dispatch
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

/// The simulated Fujifilm body's side of Fujifilm's WiFi protocol: the init on its command port, answered with a
/// zero-padded 68-byte acknowledgement (again when the client sends it again, as gphoto2 does), USB-style containers
/// after it, and, once remote capture starts, its event port (the next one) and its live view port (the one after),
/// on which it pushes JPEG frames at the configured rate.
///
/// One client at a time, as the cameras serve; its connection has a thread of its own, and so do the event and live
/// view ports while they wait for the client and while frames go out.
final class SimulatorFujiWiFiServer: Sendable {
    private let camera: SimulatedCamera
    private let configuration: CameraSimulator.Configuration
    private let listener: Socket
    private let sockets = SimulatorSockets()
    private let threads = DispatchGroup()
    /// The largest data-out phase accepted.
    private static let maximumDataOut = 1 << 20

    /// The command port.
    var port: UInt16 { listener.localPort }

    /// Listens on the configured address and port and starts accepting clients.
    init(camera: SimulatedCamera, configuration: CameraSimulator.Configuration) throws {
        self.camera = camera
        self.configuration = configuration
        listener = try Self.listen(on: configuration.bindAddress, port: configuration.port)
        _ = sockets.register(listener)
        threads.enter()
        do {
            try IOThread.detach(name: "simfuji-listen") { [self] in
                acceptClients()
                threads.leave()
            }
        } catch {
            threads.leave()
            sockets.close(listener)
            throw ViewfinderError(.io, "cannot start the simulator's listening thread: \(error)")
        }
    }

    /// Listens on `port`; for port 0, on a port below the system's ephemeral ones whose next two are free too, so
    /// that the event and live view ports can open later without a client's connection having taken them meanwhile.
    private static func listen(on address: String, port: UInt16) throws(ViewfinderError) -> Socket {
        guard port == 0 else {
            return try io { () throws(SocketError) in try Socket.listen(host: address, port: port) }
        }
        for _ in 0..<100 {
            let candidate = UInt16.random(in: 20000..<32000)
            guard let listener = try? Socket.listen(host: address, port: candidate) else { continue }
            let next = [candidate + 1, candidate + 2].map { try? Socket.listen(host: address, port: $0) }
            for socket in next { socket?.close() }
            if next.allSatisfy({ $0 != nil }) { return listener }
            listener.close()
        }
        throw ViewfinderError(.io, "no three consecutive free ports on \(address)")
    }

    /// Shuts every connection down and waits for the threads.
    func stop() {
        sockets.shutDownAll()
        _ = threads.wait(timeout: .now() + 5)
    }

    private func log(_ line: String) {
        configuration.log?("fuji: \(line)")
    }

    private func acceptClients() {
        // Until the listener is shut down, which ends accept with an error: a client may come after any pause.
        while true {
            let socket: Socket
            do {
                guard let accepted = try listener.accept(timeout: .seconds(3600)) else { continue }
                socket = accepted
            } catch {
                return
            }
            guard sockets.register(socket) else { return }
            socket.setNoDelay()
            serve(PTPIPConnection(socket: socket, timeout: configuration.replyTimeout))
            sockets.close(socket)
        }
    }

    // MARK: The command connection

    /// Serves one client until it leaves.
    private func serve(_ command: PTPIPConnection) {
        log("client connected from \(command.socket.endpoint)")
        let pump: SimulatorEventPump
        do {
            pump = try SimulatorEventPump(
                name: "simfuji-events", sockets: sockets, group: threads, silence: Locked(false), log: configuration.log
            )
        } catch {
            log("cannot start the event pump: \(error)")
            return
        }
        let session = Session()
        defer {
            camera.endSession()
            pump.stop()
            session.end()
        }
        do throws(ViewfinderError) {
            try answerInit(on: command)
            camera.sessionBegan(in: pump)
            while true {
                try command.waitForData(timeout: configuration.idleTimeout, while: "waiting for a request")
                command.readDeadline = .now + configuration.replyTimeout
                let head = try FujiWiFiTransport.read(12, from: command, while: "reading a request")
                let header = try FujiWiFiPacket.Header(decoding: head)
                if header.length == FujiWiFiPacket.initRequestLength, header.kind == .command, header.code == 0 {
                    // gphoto2 sends the init again on the same connection: acknowledge it again.
                    _ = try FujiWiFiTransport.read(header.payloadLength, from: command, while: "reading the init")
                    try acknowledge(on: command)
                    log("init repeated")
                    continue
                }
                guard header.kind == .command, header.payloadLength <= 20 else {
                    throw ViewfinderError(.malformedData, "a \(header.kind) container where a request belongs")
                }
                let parameters = try FujiWiFiPacket.parameters(
                    in: try FujiWiFiTransport.read(header.payloadLength, from: command, while: "reading a request"))
                var data: [UInt8]?
                if camera.expectsDataOut(header.code) {
                    let dataHeader = try FujiWiFiPacket.Header(
                        decoding: try FujiWiFiTransport.read(12, from: command, while: "reading data"))
                    guard dataHeader.kind == .data, dataHeader.payloadLength <= Self.maximumDataOut else {
                        throw ViewfinderError(
                            .malformedData, "expected the data of transaction \(header.transactionID)")
                    }
                    data = try FujiWiFiTransport.read(dataHeader.payloadLength, from: command, while: "reading data")
                }
                command.readDeadline = nil
                let request = SimulatorRequest(
                    code: PTPOperationCode(rawValue: header.code), transactionID: header.transactionID,
                    parameters: parameters, data: data)
                let reply = answer(request, in: pump)
                if request.code == .initiateOpenCapture, reply.code == .ok {
                    // The ports open before the answer goes out: the client connects as soon as it has it.
                    openChannels(session, pump: pump)
                }
                try send(reply, for: header, on: command)
                pump.emit(reply.events)
            }
        } catch {
            log(error.code == .disconnected ? "client disconnected" : "session ended: \(error.message)")
        }
    }

    /// The camera's answer to a request: over WiFi, its DeviceInfo names Fujifilm's vendor extension (0x0E), as
    /// libgphoto2's X-T4 DeviceInfo for WiFi has it, where over USB it says 6; or, as a real X-T4's, it is empty
    /// (a data container of 12 bytes) when the configuration says so.
    private func answer(_ request: SimulatorRequest, in pump: SimulatorEventPump) -> SimulatorReply {
        guard request.code == .getDeviceInfo else { return camera.respond(to: request, in: pump) }
        if configuration.emptyDeviceInfo { return .data([]) }
        var info = camera.deviceInfo
        info.vendorExtensionID = 0x0E
        return (try? info.encoded()).map(SimulatorReply.data) ?? SimulatorReply(code: .generalError)
    }

    /// Reads the first init, which must be 82 bytes long (the camera closes the connection otherwise), and accepts it.
    private func answerInit(on command: PTPIPConnection) throws(ViewfinderError) {
        try command.waitForData(timeout: configuration.replyTimeout, while: "waiting for the init")
        let head = try FujiWiFiTransport.read(8, from: command, while: "reading the init")
        var reader = PTPDataReader(head, reading: "the init")
        let length = try reader.read(UInt32.self)
        guard length == UInt32(FujiWiFiPacket.initRequestLength), try reader.read(UInt32.self) == 1 else {
            throw ViewfinderError(.malformedData, "an init of \(length) bytes; closing, as the cameras do")
        }
        _ = try FujiWiFiTransport.read(Int(length) - 8, from: command, while: "reading the init")
        try acknowledge(on: command)
        log("init accepted")
    }

    /// Sends the acknowledgement: connection 1, the camera's GUID and name, zero-padded to 68 bytes.
    private func acknowledge(on command: PTPIPConnection) throws(ViewfinderError) {
        var writer = PTPDataWriter(capacity: 68)
        writer.append(UInt32(68))
        writer.append(PTPIPPacketType.initCommandAck.rawValue)
        writer.append(UInt32(1))
        writer.append(bytes: [UInt8](repeating: 0x46, count: 16))
        for unit in camera.deviceInfo.model.utf16.prefix(19) { writer.append(unit) }
        var bytes = writer.bytes
        bytes += [UInt8](repeating: 0, count: max(0, 68 - bytes.count))
        try write([bytes], on: command.socket)
    }

    /// The operations with a data-in phase, which a refusal answers with an empty data container first: gphoto2
    /// takes the first container after such a request as its data, whatever its type.
    private static let dataInOperations: Set<PTPOperationCode> = [
        .getDeviceInfo, .getStorageIDs, .getStorageInfo, .getObjectHandles, .getObjectInfo, .getObject, .getThumb,
        .getDevicePropDesc, .getDevicePropValue, .getPartialObject,
    ]

    /// Sends a reply's data container, if any, then its response.
    private func send(_ reply: SimulatorReply, for request: FujiWiFiPacket.Header, on command: PTPIPConnection)
        throws(ViewfinderError)
    {
        var reply = reply
        if reply.data == nil, reply.code != .ok,
            Self.dataInOperations.contains(PTPOperationCode(rawValue: request.code))
        {
            reply.data = .bytes([])
        }
        if let payload = reply.data {
            let length: UInt64 =
                switch payload {
                case .bytes(let bytes): UInt64(bytes.count)
                case .object(_, let range): range.upperBound - range.lowerBound
                }
            let header = FujiWiFiPacket.Header(
                length: Int(min(length + 12, UInt64(UInt32.max))), kind: .data, code: request.code,
                transactionID: request.transactionID)
            switch payload {
            case .bytes(let bytes):
                try write([header.bytes, bytes], on: command.socket)
            case .object(let object, let range):
                try write([header.bytes], on: command.socket)
                try typedThrows {
                    try object.forEachPiece(of: range, chunkSize: 1 << 20) { piece, _ in
                        try io { () throws(SocketError) in
                            try command.socket.send([piece], timeout: configuration.replyTimeout, while: "sending data")
                        }
                    }
                }
            }
        }
        try write(
            [
                FujiWiFiPacket.container(
                    .response, code: reply.code.rawValue, transactionID: request.transactionID,
                    parameters: reply.parameters)
            ], on: command.socket)
    }

    private func write(_ pieces: [[UInt8]], on socket: Socket) throws(ViewfinderError) {
        for piece in pieces {
            try io { () throws(SocketError) in
                try socket.send(piece, timeout: configuration.replyTimeout, while: "sending to the client")
            }
        }
    }

    // MARK: The event and live view ports

    /// What one client's session opened besides its command connection.
    private final class Session: Sendable {
        private let sockets = Locked<[Socket]>([])
        private let isOpen = Locked(false)

        /// Whether the channels were opened already; marks them open.
        func claimChannels() -> Bool {
            isOpen.withLock { open in
                defer { open = true }
                return !open
            }
        }

        func keep(_ socket: Socket) {
            sockets.withLock { $0.append(socket) }
        }

        /// Shuts the session's sockets down, which ends their threads.
        func end() {
            for socket in sockets.withLock({ $0 }) {
                socket.shutdown()
            }
        }
    }

    /// Starts listening on the event and live view ports, as the camera does once remote capture starts.
    private func openChannels(_ session: Session, pump: SimulatorEventPump) {
        guard session.claimChannels() else { return }
        let eventPort = port &+ 1
        let liveViewPort = port &+ 2
        let timeout = configuration.replyTimeout
        acceptOnce(on: eventPort, named: "events", session: session) { socket in
            pump.deliver { events in
                for event in events {
                    let container = FujiWiFiPacket.container(
                        .event, code: event.code.rawValue, transactionID: event.transactionID,
                        parameters: event.parameters)
                    _ = try? io { () throws(SocketError) in
                        try socket.send(container, timeout: timeout, while: "sending an event")
                    }
                }
            }
            // The client sends nothing here; wait until it closes.
            var scratch = [UInt8](repeating: 0, count: 64)
            while (try? scratch.withUnsafeMutableBytes({
                try socket.receive(into: $0, timeout: .seconds(3600), while: "events")
            })) != nil {}
        }
        acceptOnce(on: liveViewPort, named: "live view", session: session) { [self] socket in
            pushFrames(on: socket)
        }
    }

    /// Listens on `port` on a thread of its own, takes the first client, runs `body` with it and closes it.
    private func acceptOnce(
        on port: UInt16, named name: String, session: Session, _ body: @escaping @Sendable (Socket) -> Void
    ) {
        let listener: Socket
        do {
            listener = try io { () throws(SocketError) in try Socket.listen(host: configuration.bindAddress, port: port)
            }
        } catch {
            log("cannot listen on the \(name) port \(port): \(error.message)")
            return
        }
        guard sockets.register(listener) else { return }
        session.keep(listener)
        log("\(name) port \(port) open")
        threads.enter()
        do {
            try IOThread.detach(name: "simfuji-\(port)") { [self] in
                defer { threads.leave() }
                // The port stays open for the session, as a camera's does: a client connects to it when it first
                // wants live view, which may be long after remote capture started.
                let accepted = try? listener.accept(timeout: configuration.idleTimeout)
                sockets.close(listener)
                guard let socket = accepted, sockets.register(socket) else { return }
                session.keep(socket)
                socket.setNoDelay()
                log("client connected to the \(name) port")
                body(socket)
                sockets.close(socket)
            }
        } catch {
            threads.leave()
            sockets.close(listener)
        }
    }

    /// Pushes a frame at the configured rate until the client closes: its length, a 14-byte header, the JPEG.
    ///
    /// A frame the client has no room for (it is not reading) is skipped rather than waited for, as a camera drops
    /// the frames of a stream nobody takes.
    private func pushFrames(on socket: Socket) {
        let interval = Duration.seconds(1) / max(1, configuration.liveViewFrameRate)
        var next = ContinuousClock.now
        var skipping = false
        while true {
            let hasRoom = (try? Poll.wait(socket.descriptor, for: Poll.writable, until: .now)).map { $0 != 0 } ?? false
            if hasRoom == skipping {
                skipping = !hasRoom
                log(
                    skipping ? "live view: the client takes no frames; skipping them" : "live view: frames go out again"
                )
            }
            if hasRoom, case .bytes(let jpeg)? = camera.fujiLiveViewFrame()?.data {
                var writer = PTPDataWriter(capacity: 18 + jpeg.count)
                writer.append(UInt32(18 + jpeg.count))
                writer.append(bytes: [UInt8](repeating: 0, count: 12) + [0x01, 0x8A])
                writer.append(bytes: jpeg)
                do {
                    try write([writer.bytes], on: socket)
                } catch {
                    return
                }
            }
            next += interval
            let ready = try? Poll.wait(socket.descriptor, for: Poll.readable, until: next)
            if let ready, ready != 0 { return }  // the client closed (it sends nothing here)
        }
    }
}
