import Dispatch
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A simulated PTP/IP camera: a responder that real clients, such as gphoto2 or `PTPIPSession`,
/// accept as a camera.
///
/// It offers standard PTP properties with realistic values (ISO, shutter speed, aperture, exposure compensation,
/// white balance, focus and exposure program, battery, date) and validates every change; the exposure program decides
/// which of them can be set. Captures render a test scene whose brightness follows the exposure settings into a real
/// JPEG on a simulated card with a DCIM folder. With the ``Identity/nikon`` identity it adds Nikon live view and
/// movie recording.
///
/// ```swift
/// let simulator = try CameraSimulator(configuration: .init(identity: .nikon, port: 0))
/// try simulator.start()
/// let session = try await PTPIPSession.connect(to: "127.0.0.1", configuration: .init(port: simulator.port))
/// // …
/// simulator.stop()
/// ```
///
/// It serves one session at a time; a second client gets an InitFail packet that says the camera is busy, after a
/// moment's wait for the session to end (a client that reconnects at once after closing). It listens
/// on loopback unless configured otherwise. Every wait for a client has a timeout, and replies go out at once: slow
/// work (rendering a capture, writing a movie) finishes later and is reported on the event connection.
public final class CameraSimulator: Sendable {
    private struct Server {
        var listener: Socket?
        var port: UInt16 = 0
        var active: SimulatorSession?
        var nextConnectionNumber: UInt32 = 1
        /// Connections whose first packet has not arrived yet.
        var opening = 0
        /// Whether a client is waiting for the active session to end.
        var waiting = false
        /// Until when a strict camera is busy, having taken a connection that closed without a handshake as its
        /// client.
        var busyUntil: ContinuousClock.Instant?
    }

    /// How long one client may wait for the active session to end before it is refused as busy: a client that closed
    /// its connections and opens new ones at once may find its old session still ending.
    static let sessionEndingGrace = Duration.seconds(2)

    /// How long a strict camera stays busy after a connection that closed without a handshake.
    static let strictBusyAfterBareConnection = Duration.seconds(1)

    /// How the simulator presents itself and behaves.
    public let configuration: Configuration
    /// The simulated camera; `nil` when the simulator plays a recording.
    let camera: SimulatedCamera?
    /// What answers the clients: the simulated camera, or the recording it plays.
    let responder: any SimulatorResponder
    private let server = Locked(Server())
    private let sockets = SimulatorSockets()
    /// Stops the announcements the camera makes of itself, while it makes them.
    let announcing = Locked<[@Sendable () -> Void]>([])
    private let threads = DispatchGroup()
    private let guid = PTPIPGUID.random()
    /// Whether the camera has stopped answering (``stopAnswering()``).
    private let silence = Locked(false)
    /// The answers to the clients' probes sent so far.
    private let probeAnswers = Locked(0)
    /// The camera as a USB device, once ``startUSB(controller:)`` made it one.
    let usb = Locked<SimulatorUSBFunction?>(nil)
    /// The Fujifilm WiFi protocol's server, for the `fuji` identity.
    private let fujiWiFi = Locked<SimulatorFujiWiFiServer?>(nil)
    /// The clients the camera's user accepted on its screen since it started, those waiting for the user, and the
    /// user's answers not yet taken (``Configuration/pairingPrompt``).
    private let pairing = Locked(Pairing())

    /// Where the camera's questions to its user about new clients stand.
    private struct Pairing {
        var accepted: Set<PTPIPGUID> = []
        var waiting: Set<PTPIPGUID> = []
        var answers: [PTPIPGUID: Bool] = [:]
        var asked = 0
    }

    /// Creates the camera, with its sample images on the card; it does not listen until ``start()``.
    ///
    /// - Throws: a `ViewfinderError` when the sample images cannot be rendered.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        let camera = try SimulatedCamera(configuration: configuration)
        self.camera = camera
        responder = camera
    }

    /// Creates a camera that answers as a real camera did, from a recording of it (see ``RecordedCamera``); it
    /// does not listen until ``start()``.
    ///
    /// The configuration's identity and camera settings do not apply; how it listens, its timeouts and its log do.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the recording's DeviceInfo cannot be encoded.
    public init(replaying recording: RecordedCamera, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        camera = nil
        responder = try ReplayResponder(recording: recording)
    }

    /// The port the simulator listens on, once started.
    public var port: UInt16 { server.withLock { $0.port } }

    /// Starts listening: for PTP/IP, or for Fujifilm's WiFi protocol as the `fuji` identity, whose event and live
    /// view ports are the next two after ``port``, opened once a client starts remote capture.
    ///
    /// - Throws: a `ViewfinderError` when the address cannot be bound, for example because the port
    ///   is in use.
    public func start() throws {
        if let camera, configuration.identity == .fuji {
            let fuji = try SimulatorFujiWiFiServer(camera: camera, configuration: configuration)
            fujiWiFi.withLock { $0 = fuji }
            server.withLock { $0.port = fuji.port }
            configuration.log?(
                "listening on \(HostPort.text(configuration.bindAddress, port: fuji.port)) as "
                    + "\(camera.deviceInfo.manufacturer) \(camera.deviceInfo.model) (fuji, Fujifilm's WiFi protocol)")
            return
        }
        let listener = try io { () throws(SocketError) in
            try Socket.listen(host: configuration.bindAddress, port: configuration.port)
        }
        guard sockets.register(listener) else { return }
        server.withLock { server in
            server.listener = listener
            server.port = listener.localPort
        }
        let identity = "\(responder.deviceInfo.manufacturer) \(responder.deviceInfo.model)"
        let kind = camera == nil ? "a recording" : configuration.identity.rawValue
        configuration.log?("listening on \(listener.endpoint) as \(identity) (\(kind))")
        do {
            try announce(port: listener.localPort)
        } catch {
            sockets.close(listener)
            throw error
        }
        threads.enter()
        do {
            try IOThread.detach(name: "sim\(listener.localPort)-listen") { [self] in
                acceptConnections(on: listener)
                sockets.close(listener)
                threads.leave()
            }
        } catch {
            threads.leave()
            sockets.close(listener)
            throw ViewfinderError(.io, "cannot start the simulator's listening thread: \(error)")
        }
    }

    /// Keeps every connection open but stops answering and sending anything, as a camera that left the network
    /// without closing its connections: out of WiFi range, or its battery pulled.
    ///
    /// Requests are read and left unanswered, events and answers to probes are no longer sent, and new connections
    /// are closed at once. Clients notice only through their own timeouts. ``stop()`` still ends everything.
    public func stopAnswering() {
        silence.withLock { $0 = true }
        configuration.log?("stopped answering")
    }

    /// Drops every connection at once and stops listening, as a camera that crashed would: whatever was being sent
    /// stops mid-packet, no session is closed in order, and the connections are reset.
    ///
    /// Clients see their connections fail in the middle of whatever they were doing: a download, live view, a
    /// property change. It returns at once; ``stop()`` afterwards waits for the simulator's threads.
    public func dropAllConnections() {
        sockets.shutDownAll(resetting: true)
        configuration.log?("dropped every connection")
    }

    /// Stops listening, ends the session and waits (up to five seconds) for the simulator's threads to finish.
    public func stop() {
        stopAnnouncing()
        usb.withLock { function in
            function?.stop()
            function = nil
        }
        fujiWiFi.withLock { fuji in
            fuji?.stop()
            fuji = nil
        }
        sockets.shutDownAll()
        server.withLock { $0.active }?.end()
        _ = threads.wait(timeout: .now() + 5)
    }

    private func acceptConnections(on listener: Socket) {
        while true {
            do {
                guard let socket = try listener.accept(timeout: .seconds(1)) else { continue }
                let admitted = server.withLock { server in
                    guard server.opening < configuration.maximumOpeningConnections else { return false }
                    server.opening += 1
                    return true
                }
                guard admitted else {
                    refuse(socket, because: "\(configuration.maximumOpeningConnections) connections are still opening")
                    continue
                }
                threads.enter()
                do {
                    try PlatformThread.detach(name: "sim\(port)-conn") { [self] in
                        serve(socket, opening: true)
                        threads.leave()
                    }
                } catch {
                    threads.leave()
                    server.withLock { $0.opening -= 1 }
                    refuse(socket, because: "\(error)")
                }
            } catch {
                return
            }
        }
    }

    /// Turns a new connection away at once with an InitFail packet that says the camera is busy.
    private func refuse(_ socket: Socket, because reason: String) {
        configuration.log?("refused a connection from \(socket.endpoint): \(reason)")
        let connection = PTPIPConnection(socket: socket, timeout: .milliseconds(100))
        try? connection.send(.initFail(reason: PTPIPInitFailReason.busy.rawValue), while: "refusing a connection")
        socket.close()
    }

    /// Serves a connection that is already open, on the calling thread: reads its first packet and makes it a
    /// session's command connection, serving the session until it ends, or a session's event connection.
    ///
    /// The first packet must arrive whole within ``Configuration/replyTimeout``, however slowly the client trickles
    /// it. The simulator's own threads call this for each connection they accept; a harness may call it with one end
    /// of a socket pair (``start()`` is not needed then).
    package func serve(_ socket: Socket) {
        serve(socket, opening: false)
    }

    private func serve(_ socket: Socket, opening: Bool) {
        var isOpening = opening
        defer {
            if isOpening { server.withLock { $0.opening -= 1 } }
        }
        guard sockets.register(socket) else { return }
        socket.setNoDelay()
        let connection = PTPIPConnection(socket: socket, timeout: configuration.replyTimeout)
        connection.acknowledgesQuickly = true
        var keepsSocket = false
        defer {
            if !keepsSocket { sockets.close(socket) }
        }
        guard !silence.withLock({ $0 }) else { return }
        do throws(ViewfinderError) {
            connection.readDeadline = .now + configuration.replyTimeout
            let first: PTPIPPacket
            do throws(ViewfinderError) {
                first = try connection.readPacket(while: "waiting for the PTP/IP handshake")
            } catch {
                if configuration.strict && error.code == .disconnected {
                    // A camera that serves one client takes a connection as its client before its handshake, and is
                    // a moment letting go of one that closes without it.
                    server.withLock { $0.busyUntil = .now + Self.strictBusyAfterBareConnection }
                    configuration.log?("\(socket.endpoint) closed without a handshake; busy for a moment")
                }
                throw error
            }
            connection.readDeadline = nil
            if isOpening {
                server.withLock { $0.opening -= 1 }
                isOpening = false
            }
            switch first {
            case .initCommandRequest(let guid, let name, _):
                if let paired = configuration.pairedClients, !paired.contains(guid),
                    !pairing.withLock({ $0.accepted.contains(guid) })
                {
                    if let prompt = configuration.pairingPrompt {
                        switch askToPair(on: connection, name: name, guid: guid, answeredAfter: prompt) {
                        case true?:
                            try runSession(on: connection, clientName: name)
                        case false?:
                            configuration.log?("its user declined \(name)")
                            try connection.send(
                                .initFail(reason: PTPIPInitFailReason.rejectedInitiator.rawValue),
                                while: "refusing \(name)")
                        case nil:
                            return
                        }
                    } else {
                        configuration.log?("refused \(name) from \(socket.endpoint): not paired (GUID \(guid))")
                        try connection.send(
                            .initFail(reason: PTPIPInitFailReason.rejectedInitiator.rawValue), while: "refusing \(name)"
                        )
                    }
                } else {
                    try runSession(on: connection, clientName: name)
                }
            case .initEventRequest(let number):
                keepsSocket = try attachEvents(connection, number: number)
            case let packet:
                configuration.log?("\(socket.endpoint) opened with \(packet.type); closing it")
            }
        } catch {
            configuration.log?("connection from \(socket.endpoint) ended: \(error.message)")
        }
    }

    /// Leaves a client the camera does not know waiting for the handshake's answer while the camera asks its user
    /// whether to connect, as Canon, Nikon and Sony bodies do over WiFi; the user accepts after `delay` unless
    /// ``confirmPairing()`` or ``declinePairing()`` answers first, and the camera remembers an accepted client.
    ///
    /// - Returns: Whether the user accepted the client, or `nil` when the client gave up waiting (closed its
    ///   connection) or the simulator stopped first.
    private func askToPair(
        on connection: PTPIPConnection, name: String, guid: PTPIPGUID, answeredAfter delay: Duration
    ) -> Bool? {
        configuration.log?("asks its user whether to connect with \(name) (GUID \(guid))")
        pairing.withLock { pairing in
            pairing.waiting.insert(guid)
            pairing.asked += 1
        }
        defer { pairing.withLock { _ = $0.waiting.remove(guid) } }
        let deadline = ContinuousClock.now + delay
        while true {
            let answer = pairing.withLock { pairing -> Bool? in
                let answer = pairing.answers.removeValue(forKey: guid) ?? (ContinuousClock.now >= deadline ? true : nil)
                if answer == true { pairing.accepted.insert(guid) }
                return answer
            }
            if let answer {
                if answer { configuration.log?("its user accepted \(name)") }
                return answer
            }
            do {
                // The client sends nothing before the answer: anything to read is its leaving, or the simulator
                // stopping.
                try connection.waitForData(
                    timeout: max(.zero, min(deadline - .now, Self.pairingCheckInterval)),
                    while: "asking to pair with \(name)")
            } catch  where error.code == .timeout {
                continue
            } catch {}
            configuration.log?("\(name) stopped waiting before the camera's user answered")
            return nil
        }
    }

    /// How often a camera asking its user about a client checks for the answer.
    private static let pairingCheckInterval = Duration.milliseconds(20)

    /// The clients waiting while the camera asks its user whether to let them connect
    /// (``Configuration/pairingPrompt``).
    public var clientsAwaitingPairing: Int { pairing.withLock { $0.waiting.count } }

    /// How many times the camera has asked its user whether to let a client connect since it started.
    public var pairingRequests: Int { pairing.withLock { $0.asked } }

    /// Plays the camera's user confirming the connection on its screen: every client waiting for the answer
    /// (``clientsAwaitingPairing``) connects, and is remembered.
    public func confirmPairing() {
        answerPairing(true)
    }

    /// Plays the camera's user declining the connection on its screen: every client waiting for the answer is
    /// refused with InitFail (rejected initiator).
    public func declinePairing() {
        answerPairing(false)
    }

    private func answerPairing(_ accepts: Bool) {
        pairing.withLock { pairing in
            for guid in pairing.waiting { pairing.answers[guid] = accepts }
        }
    }

    private func runSession(on connection: PTPIPConnection, clientName: String) throws(ViewfinderError) {
        let endpoint = connection.socket.endpoint
        let pump: SimulatorEventPump
        do {
            pump = try SimulatorEventPump(
                name: "sim\(port)-events", sockets: sockets, group: threads, silence: silence,
                answersProbes: !configuration.strict, probesAnswered: probeAnswers, log: configuration.log)
        } catch {
            configuration.log?("refused \(clientName) from \(endpoint): \(error)")
            try connection.send(.initFail(reason: PTPIPInitFailReason.busy.rawValue), while: "refusing \(endpoint)")
            return
        }
        let admit = { [server, responder, silence] () -> SimulatorSession? in
            server.withLock { server in
                guard server.active == nil, server.busyUntil.map({ ContinuousClock.now >= $0 }) ?? true else {
                    return nil
                }
                let session = SimulatorSession(
                    number: server.nextConnectionNumber, clientName: clientName, command: connection, camera: responder,
                    pump: pump, silence: silence)
                server.nextConnectionNumber += 1
                server.active = session
                return session
            }
        }
        var admitted = admit()
        // One client at a time waits a moment for the active session to end; any other is refused at once, and every
        // one by a strict camera.
        let waits =
            admitted == nil && !configuration.strict
            && server.withLock { server in
                defer { server.waiting = true }
                return !server.waiting
            }
        if waits {
            let deadline = ContinuousClock.now + Self.sessionEndingGrace
            while admitted == nil, ContinuousClock.now < deadline {
                usleep(10_000)
                admitted = admit()
            }
            server.withLock { $0.waiting = false }
        }
        guard let session = admitted else {
            pump.stop()
            configuration.log?("refused \(clientName) from \(endpoint): the camera is busy with another client")
            try connection.send(.initFail(reason: PTPIPInitFailReason.busy.rawValue), while: "refusing \(endpoint)")
            return
        }
        defer {
            server.withLock { $0.active = nil }
        }
        try connection.send(
            .initCommandAck(
                connectionNumber: session.number, guid: guid, name: responder.deviceInfo.model,
                version: PTPIPPacket.protocolVersion),
            while: "accepting \(endpoint)")
        configuration.log?("\(clientName) connected from \(endpoint) (connection \(session.number))")
        let reason = session.run(configuration: configuration)
        configuration.log?("connection \(session.number) with \(clientName) ended: \(reason)")
    }

    /// Gives an event connection to the session with `number`.
    ///
    /// - Returns: Whether the session took the connection over.
    private func attachEvents(_ connection: PTPIPConnection, number: UInt32) throws(ViewfinderError) -> Bool {
        let session = server.withLock { server in server.active?.number == number ? server.active : nil }
        guard let session, session.claimEvents() else {
            try connection.send(
                .initFail(reason: PTPIPInitFailReason.unspecified.rawValue), while: "refusing an event connection")
            configuration.log?("refused an event connection for unknown connection \(number)")
            return false
        }
        try connection.send(.initEventAck, while: "accepting the event connection")
        do {
            try session.attachEvents(connection)
        } catch {
            configuration.log?("cannot serve the event connection of connection \(number): \(error)")
            return false
        }
        return true
    }
}

extension CameraSimulator {
    /// The current value of a property of the camera's model, whatever the identity shows of it, for checks.
    package func modelValue(of code: PTPDevicePropertyCode) -> PTPValue? {
        camera?.state.withLock { $0.properties[code]?.value }
    }

    /// Where a simulated Canon sends pictures (2 the card, 4 the computer) and live view (a mask: 1 the camera's
    /// screen, 2 the computer), for checks.
    package var canonEOSDestinations: (pictures: UInt32, liveView: UInt32) {
        camera?.state.withLock { ($0.canon.captureDestination, $0.canon.evfOutput) } ?? (0, 0)
    }

    /// How many requests for `operation` the simulated camera has answered, refusals included, for checks and
    /// figures; every request when `operation` is `nil`.
    package func requestsAnswered(_ operation: PTPOperationCode? = nil) -> Int {
        camera?.requestsAnswered.withLock { counts in
            operation.map { counts[$0.rawValue] ?? 0 } ?? counts.values.reduce(0, +)
        } ?? 0
    }

    /// How many of the clients' probes the camera has answered, for checks.
    package var probesAnswered: Int { probeAnswers.withLock { $0 } }

    /// Whether a client waits for the active session to end before it is admitted, for checks.
    package var isClientWaitingForTheSessionToEnd: Bool { server.withLock { $0.waiting } }

    /// Whether the simulated camera is recording a movie, for checks.
    package var isRecordingMovie: Bool {
        camera?.state.withLock { $0.recordingSince != nil } ?? false
    }

    /// Where the simulated lens is focused: steps of the focus motor from the closest distance (0) to infinity
    /// (10 000), half way when the camera starts.
    package var focusPosition: Int {
        camera?.state.withLock { $0.focusPosition } ?? 0
    }

    /// The centre of the simulated Nikon's autofocus area in pixels of its 6000x4000 picture, as ChangeAfArea last
    /// moved it: the middle when the camera starts.
    package var afAreaCenter: LiveViewPoint {
        camera.map { camera in camera.state.withLock { camera.nikonAFArea(of: $0) }.center }
            ?? LiveViewPoint(x: 0, y: 0)
    }

    /// How many times the simulated Canon magnifies its live view, as Zoom last set it: 1 when the camera starts.
    package var liveViewZoomFactor: Int {
        camera.map { Int($0.state.withLock { $0.canon.zoom.factor }) } ?? 1
    }

    /// How many seconds the simulated camera's clock is ahead of the system clock (behind when negative): zero until a
    /// client sets the clock.
    package var clockOffset: Int {
        camera?.state.withLock { $0.clockOffset } ?? 0
    }

    /// How long the simulated shutter stayed open for the last picture: as long as the shutter button was held, and at
    /// least the set exposure time (at most a second); `nil` before the first.
    package var lastExposureLength: Duration? {
        exposures.last?.length
    }

    /// When the simulated shutter opened and how long it stayed open, for each of the last 1000 pictures, oldest
    /// first, for checks and figures: the times and lengths the camera saw, whoever released its shutter.
    package var exposures: [(opened: ContinuousClock.Instant, length: Duration)] {
        camera?.state.withLock { $0.exposures } ?? []
    }

    /// When the simulated shutter last opened for a picture; `nil` before the first.
    ///
    /// Taken when the camera accepts the request, as a real camera's shutter opens: comparing it across cameras
    /// shows how far apart a rig's pictures were taken.
    public var lastShutterRelease: ContinuousClock.Instant? {
        camera?.state.withLock { $0.lastShutterRelease }
    }

    /// The handles of the files and folders on the simulated card, in the order they were made.
    public var objectHandles: [UInt32] {
        camera?.state.withLock { $0.storage.objects.keys.sorted() } ?? []
    }

    /// The bytes of a file on the simulated card, or `nil` when there is no such file or its content is generated.
    public func objectData(_ handle: UInt32) -> [UInt8]? {
        camera?.state.withLock { $0.storage.objects[handle]?.data?.stored }
    }

    /// Puts a file of `byteCount` bytes whose content is made as it is sent in the card's camera folder, and
    /// reports it as ``addObject(named:format:data:)`` does: for trying files too big to hold, such as a video of
    /// more than 4 GiB, without the memory.
    ///
    /// Each 4096-byte page of the file starts with its number (0, 1, 2, …) as a little-endian 64-bit integer, and
    /// its other bytes are that number's low byte, so a download can be checked piece by piece. GetObjectInfo gives
    /// the size of a file of 4 GiB or more as `0xFFFFFFFF`, as MTP cameras do; GetObjectPropValue with ObjectSize
    /// (`0xDC04`) and the data phase of GetObject give the whole size.
    ///
    /// - Returns: The file's object handle.
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a name PTP cannot carry.
    public func addGeneratedObject(
        named filename: String, format: PTPObjectFormatCode = .undefined, byteCount: UInt64
    ) throws -> UInt32 {
        try add(filename, format: format, content: ObjectBytes(generatedCount: byteCount))
    }

    /// Puts a file in the card's camera folder, as if the camera had recorded it, and reports it to the connected
    /// client with an ObjectAdded event.
    ///
    /// Like the camera's own files, it gets a thumbnail: a small JPEG of the scene, which clients such as gphoto2
    /// need before they download a file of an undefined format, as raw files are.
    ///
    /// - Parameters:
    ///   - filename: The file's name, such as `DSC_0100.NEF`.
    ///   - format: The file's format.
    ///   - data: The file's bytes, less than 4 GiB.
    /// - Returns: The file's object handle.
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a name PTP cannot carry or a file of
    ///   4 GiB or more.
    public func addObject(
        named filename: String, format: PTPObjectFormatCode = .undefined, data: [UInt8]
    ) throws -> UInt32 {
        guard data.count < Int(UInt32.max) else {
            throw ViewfinderError(
                .invalidArgument, "a stored file holds less than 4 GiB; use addGeneratedObject for a bigger one")
        }
        return try add(filename, format: format, content: ObjectBytes(data))
    }

    private func add(_ filename: String, format: PTPObjectFormatCode, content: ObjectBytes) throws -> UInt32 {
        guard filename.utf16.count < 255, !filename.isEmpty else {
            throw ViewfinderError(.invalidArgument, "a file on the card needs a name of 1 to 254 characters")
        }
        let camera = try simulatedCamera(for: "put a file on the card")
        let date = camera.currentDate()
        let thumbnail = try camera.makeThumbnail(lighting: camera.lighting())
        let handle = camera.state.withLock { state in
            state.storage.addFile(
                named: filename, format: format, content: content, thumbnail: thumbnail.jpeg,
                imageSize: (0, 0, thumbnail.width, thumbnail.height), date: date)
        }
        report([PTPEvent(code: .objectAdded, parameters: [handle])])
        return handle
    }

    /// The simulated camera, for what only it can do.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the simulator plays a recording.
    func simulatedCamera(for activity: String) throws(ViewfinderError) -> SimulatedCamera {
        guard let camera else {
            throw ViewfinderError(
                .notAvailable, "cannot \(activity): a replayed camera has only what its recording shows")
        }
        return camera
    }

    /// What the camera answers a request, as a client would get it, without a connection: for harnesses that check
    /// what a replayed camera plays.
    package func answer(_ operation: PTPOperationCode, parameters: [UInt32]) -> (PTPResponseCode, [UInt8]?) {
        struct NoSession: SimulatorSessionContext {
            func schedule(after delay: Duration, _ job: @escaping @Sendable () -> [PTPEvent]) {}
        }
        let reply = responder.respond(
            to: SimulatorRequest(code: operation, transactionID: 1, parameters: parameters, data: nil), in: NoSession())
        guard case .bytes(let bytes)? = reply.data else { return (reply.code, nil) }
        return (reply.code, bytes)
    }

    /// How many requests a replayed camera got in all, how many of each operation it answered from its recording,
    /// and how many it refused with OperationNotSupported; none for the simulated camera.
    package var replayCounts: (requests: Int, answered: [PTPOperationCode: Int], refused: [PTPOperationCode: Int]) {
        (responder as? ReplayResponder)?.played.withLock { $0 } ?? (0, [:], [:])
    }

    /// Takes a picture as the camera's user does with its own shutter button: the picture goes on the card, and the
    /// connected client hears of it as of a picture it asked for (a Canon in its events, the others with ObjectAdded),
    /// as tethered shooting needs.
    ///
    /// - Throws: `ViewfinderError/Code/deviceBusy` while a picture is being taken, or
    ///   `ViewfinderError/Code/notAvailable` for a replayed camera.
    public func pressShutterButton() throws(ViewfinderError) {
        /// Sends the capture's events to whoever is connected when they are ready.
        struct Reporting: SimulatorSessionContext {
            let simulator: CameraSimulator
            func schedule(after delay: Duration, _ job: @escaping @Sendable () -> [PTPEvent]) {
                Task { [simulator] in
                    try? await Task.sleep(for: delay)
                    simulator.report(job())
                }
            }
        }
        let camera = try simulatedCamera(for: "take a picture")
        guard camera.startCapture(transactionID: 0, in: Reporting(simulator: self)) else {
            throw ViewfinderError(.deviceBusy, "the camera is taking a picture already")
        }
    }

    /// Sends events to the connected client, if there is one.
    func report(_ events: [PTPEvent]) {
        guard !events.isEmpty else { return }
        let session = server.withLock { $0.active }
        session?.emit(events)
    }
}
