import Dispatch
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// The simulated camera against clients that break the protocol on purpose, over real loopback TCP: a client that
/// never opens its event connection, slow-loris clients, floods of connections, connections that end mid-phase and
/// first packets that are not PTP/IP.
///
/// The simulator must drop each such client within its timeouts, keep serving (one session at a time, others refused
/// clearly with an InitFail packet), and leave no thread or socket behind once stopped (counted in `/proc` by port).
/// The hostile clients do their blocking socket work off Swift's cooperative threads.
@Suite struct HostileClientTests {
    /// Short reply timeouts, so hostile clients are dropped soon, yet long enough for a well-behaved client's thread to
    /// send its handshake on a loaded machine; the idle timeout stays long, because a well-behaved client's next request
    /// may wait for its test to get one of Swift's cooperative threads.
    static func configuration(idleTimeout: Duration = .seconds(600)) -> CameraSimulator.Configuration {
        CameraSimulator.Configuration(
            port: 0, sampleImageCount: 0, replyTimeout: HostilePeerTests.silence, idleTimeout: idleTimeout,
            maximumOpeningConnections: 4)
    }

    /// Starts a simulator, runs `body`, stops the simulator and checks that nothing of it is left.
    func withSimulator(
        _ configuration: CameraSimulator.Configuration = Self.configuration(),
        _ body: (CameraSimulator) async throws -> Void
    ) async throws {
        let simulator = try CameraSimulator(configuration: configuration)
        try simulator.start()
        let port = simulator.port
        // The count sees the simulator's listener, so that it seeing nothing at the end means something.
        try await waitUntil("the simulator's listener to show: \(PortResources.held(for: port))") {
            PortResources.held(for: port).threads == ["sim\(port)-listen"]
        }
        #expect(PortResources.held(for: port).sockets.count == 1)
        do {
            try await body(simulator)
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
        try await waitUntil("the simulator's threads and sockets to go: \(PortResources.held(for: port))") {
            PortResources.held(for: port) == .none
        }
    }

    /// Checks that a well-behaved client is served: it connects and lists the storages.
    func expectServed(_ simulator: CameraSimulator) async throws {
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: SimulatorHarness.clientConfiguration(simulator))
        let storages = try await session.storageIDs()
        #expect(storages == [0x0001_0001])
        await session.close()
    }

    @Test func aClientThatNeverOpensItsEventConnectionIsDropped() async throws {
        try await withSimulator { simulator in
            let port = simulator.port
            let outcome = await offThePool { () -> ViewfinderError.Code? in
                let client = try? RawClient(port: port)
                guard let client, (try? client.openCommandConnection()) != nil else { return nil }
                defer { client.close() }
                return client.waitForTheEnd()
            }
            #expect(outcome == .disconnected)
            try await expectServed(simulator)
        }
    }

    @Test func stoppingEndsASessionStillWaitingForItsEventConnection() async throws {
        // The client would have ten minutes to open its event connection: stopping must not wait for that. (Long
        // enough that the session's thread is still there when a starved test first looks for it.)
        var configuration = Self.configuration()
        configuration.replyTimeout = .seconds(600)
        let simulator = try CameraSimulator(configuration: configuration)
        try simulator.start()
        let port = simulator.port
        let opened = await offThePool { () -> RawClient? in
            guard let client = try? RawClient(port: port), (try? client.openCommandConnection()) != nil else {
                return nil
            }
            return client
        }
        let client = try #require(opened)
        try await waitUntil("the session's thread to show: \(PortResources.held(for: port))") {
            PortResources.held(for: port).threads.contains { $0.hasSuffix("-conn") }
        }
        await offThePool { simulator.stop() }
        try await waitUntil("the simulator's threads to go: \(PortResources.held(for: port))") {
            PortResources.held(for: port).threads.isEmpty
        }
        // The one socket left is the client's own.
        client.close()
        try await waitUntil("the sockets to go: \(PortResources.held(for: port))") {
            PortResources.held(for: port) == .none
        }
    }

    @Test func aSlowLorisHandshakeIsDroppedWhileOthersAreServed() async throws {
        try await withSimulator { simulator in
            let port = simulator.port
            let trickled = Task {
                await offThePool { () -> (sent: Int, of: Int)? in
                    guard let client = try? RawClient(port: port) else { return nil }
                    defer { client.close() }
                    let packet = RawClient.initCommandRequest
                    return (client.trickle(packet, every: .milliseconds(100)), packet.count)
                }
            }
            try await expectServed(simulator)
            let result = try #require(await trickled.value)
            #expect(result.sent < result.of, "the simulator took \(result.sent) of \(result.of) trickled bytes")
        }
    }

    @Test func aSlowLorisRequestEndsTheSession() async throws {
        try await withSimulator { simulator in
            let port = simulator.port
            let result = await offThePool { () -> (sent: Int, of: Int)? in
                guard let client = try? RawClient(port: port), (try? client.openSession()) != nil else { return nil }
                defer { client.close() }
                let request = try! PTPIPPacket.operationRequest(
                    dataPhase: .noDataOrDataIn, code: .getStorageIDs, transactionID: 1, parameters: []
                ).encoded()
                return (client.trickle(request, every: .milliseconds(200)), request.count)
            }
            let trickled = try #require(result)
            #expect(trickled.sent < trickled.of)
            try await expectServed(simulator)
        }
    }

    @Test func aFloodOfConnectionsIsRefusedClearlyAndCostsNoThreads() async throws {
        try await withSimulator { simulator in
            let port = simulator.port
            let count = 48
            let (answers, mostThreads) = await offThePool { () -> ([String], Int) in
                let clients = (0..<count).compactMap { _ in try? RawClient(port: port) }
                defer {
                    for client in clients { client.close() }
                }
                var mostThreads = 0
                let answers = clients.map { client in
                    let threads = PortResources.held(for: port).threads.filter { $0.hasSuffix("-conn") }
                    mostThreads = max(mostThreads, threads.count)
                    return client.firstAnswer()
                }
                return (answers, mostThreads)
            }
            // Each connection is refused at once or, if it got one of the 4 opening slots, dropped when its
            // handshake did not come in time; the listen backlog spreads the flood out, so slots free up meanwhile.
            #expect(answers.count == count)
            #expect(answers.allSatisfy { $0 == "busy" || $0 == "disconnected" }, "\(answers)")
            #expect(answers.contains("busy"))
            #expect(mostThreads <= 4, "at most 4 connections may be opening at once")
            try await expectServed(simulator)
        }
    }

    @Test func aClientArrivingAsTheSessionEndsIsAdmittedOnceItHasEnded() async throws {
        try await withSimulator { simulator in
            let port = simulator.port
            let admitted = await offThePool { () -> Bool in
                guard let first = try? RawClient(port: port), (try? first.openSession()) != nil else { return false }
                // The first client leaves once the second one waits for its session to end, as a client that
                // reconnects at once may find its old session still ending.
                let leaving = try? PlatformThread(name: "test-leaving") {
                    for _ in 0..<10_000 where !simulator.isClientWaitingForTheSessionToEnd { usleep(2000) }
                    first.close()
                }
                defer { leaving?.join() }
                guard let second = try? RawClient(port: port) else { return false }
                defer { second.close() }
                return (try? second.openCommandConnection()) != nil
            }
            #expect(admitted, "the second client was refused instead of waiting for the first session to end")
            try await expectServed(simulator)
        }
    }

    @Test func aClientThatClosesMidDataPhaseFreesTheCamera() async throws {
        try await withSimulator { simulator in
            let port = simulator.port
            let opened = await offThePool { () -> Bool in
                guard let client = try? RawClient(port: port), (try? client.openSession()) != nil else { return false }
                defer { client.close() }
                let request = PTPIPPacket.operationRequest(
                    dataPhase: .dataOut, code: .setDevicePropValue, transactionID: 1, parameters: [0x500F])
                return (try? client.command.send(request, while: "test")) != nil
                    && (try? client.command.send(.startData(transactionID: 1, totalLength: 2), while: "test")) != nil
            }
            #expect(opened)
            try await expectServed(simulator)
        }
    }

    @Test func anOversizedDataOutPhaseEndsTheSessionWithoutBeingAllocated() async throws {
        try await withSimulator { simulator in
            let port = simulator.port
            // fuzz-simulator, whose allocations libFuzzer limits to 64 MiB, holds that the phase is never allocated.
            let outcome = await offThePool { () -> ViewfinderError.Code? in
                guard let client = try? RawClient(port: port), (try? client.openSession()) != nil else { return nil }
                defer { client.close() }
                let request = PTPIPPacket.operationRequest(
                    dataPhase: .dataOut, code: .setDevicePropValue, transactionID: 1, parameters: [0x500F])
                try? client.command.send(request, while: "test")
                try? client.command.send(.startData(transactionID: 1, totalLength: 3 << 30), while: "test")
                return client.waitForTheEnd()
            }
            #expect(outcome == .disconnected)
            try await expectServed(simulator)
        }
    }

    @Test func silenceAfterTheHandshakeEndsTheSessionAtTheIdleTimeout() async throws {
        try await withSimulator(Self.configuration(idleTimeout: HostilePeerTests.silence)) { simulator in
            let port = simulator.port
            let outcome = await offThePool { () -> ViewfinderError.Code? in
                guard let client = try? RawClient(port: port), (try? client.openSession()) != nil else { return nil }
                defer { client.close() }
                return client.waitForTheEnd()
            }
            #expect(outcome == .disconnected)
        }
    }

    /// First packets that do not open a session.
    enum BadOpening: CaseIterable {
        case hugeLength, lengthShorterThanAHeader, unknownType, eventConnectionOfNoSession, request
    }

    @Test(arguments: BadOpening.allCases)
    func firstPacketsThatOpenNoSessionAreDropped(_ opening: BadOpening) async throws {
        try await withSimulator { simulator in
            let port = simulator.port
            let answer = await offThePool { () -> String in
                guard let client = try? RawClient(port: port) else { return "no connection" }
                defer { client.close() }
                let bytes: [UInt8]
                switch opening {
                case .hugeLength: bytes = header(length: 0xFFFF_FFFF, type: 1)
                case .lengthShorterThanAHeader: bytes = header(length: 3, type: 1)
                case .unknownType: bytes = header(length: 8, type: 77)
                case .eventConnectionOfNoSession:
                    bytes = try! PTPIPPacket.initEventRequest(connectionNumber: 9).encoded()
                case .request:
                    bytes = try! PTPIPPacket.operationRequest(
                        dataPhase: .noDataOrDataIn, code: .openSession, transactionID: 0, parameters: [1]
                    ).encoded()
                }
                try? client.command.sendRaw(bytes)
                return client.firstAnswer()
            }
            #expect(answer == (opening == .eventConnectionOfNoSession ? "refused" : "disconnected"))
            try await expectServed(simulator)
        }
    }
}

/// A PTP/IP client that does exactly what a test tells it, blocking its thread; run it off the cooperative pool.
final class RawClient: Sendable {
    /// An InitCommandRequest from a client named "raw".
    static let initCommandRequest = try! PTPIPPacket.initCommandRequest(
        guid: .random(), name: "raw", version: 0x0001_0000
    ).encoded()

    let port: UInt16
    let command: PTPIPConnection
    private let events = Locked<PTPIPConnection?>(nil)

    init(port: UInt16) throws {
        self.port = port
        command = PTPIPConnection(
            socket: try Socket.connect(host: "127.0.0.1", port: port, timeout: .seconds(5)), timeout: .seconds(5))
    }

    /// Sends InitCommandRequest and reads the InitCommandAck.
    ///
    /// - Returns: The connection number.
    @discardableResult
    func openCommandConnection() throws -> UInt32 {
        try command.sendRaw(Self.initCommandRequest)
        guard case .initCommandAck(let number, _, _, _) = try command.readPacket(while: "test") else {
            throw ViewfinderError(.malformedData, "no InitCommandAck")
        }
        return number
    }

    /// Opens both connections and the PTP session.
    func openSession() throws {
        let number = try openCommandConnection()
        let events = PTPIPConnection(
            socket: try Socket.connect(host: "127.0.0.1", port: port, timeout: .seconds(5)), timeout: .seconds(5))
        self.events.withLock { $0 = events }
        try events.send(.initEventRequest(connectionNumber: number), while: "test")
        guard try events.readPacket(while: "test") == .initEventAck else {
            throw ViewfinderError(.malformedData, "no InitEventAck")
        }
        try command.send(
            .operationRequest(dataPhase: .noDataOrDataIn, code: .openSession, transactionID: 0, parameters: [1]),
            while: "test")
        guard case .operationResponse(.ok, 0, _) = try command.readPacket(while: "test") else {
            throw ViewfinderError(.malformedData, "OpenSession failed")
        }
    }

    /// Sends `bytes` one at a time, `interval` apart, until all are sent or the simulator drops the connection.
    ///
    /// - Returns: How many bytes were sent before the connection ended.
    func trickle(_ bytes: [UInt8], every interval: Duration) -> Int {
        for (index, byte) in bytes.enumerated() {
            guard (try? command.sendRaw([byte])) != nil, !isClosedByPeer() else { return index }
            var request = timespec(tv_sec: 0, tv_nsec: Int(interval.components.attoseconds / 1_000_000_000))
            nanosleep(&request, nil)
        }
        return isClosedByPeer() ? bytes.count - 1 : bytes.count
    }

    /// Whether the simulator has closed the connection.
    private func isClosedByPeer() -> Bool {
        var descriptor = pollfd(fd: command.socket.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(command.socket.descriptor, &byte, 1, Int32(MSG_PEEK)) <= 0
    }

    /// Reads until the simulator closes the connection, with patience.
    ///
    /// - Returns: The error the read ended with: `disconnected` when the simulator closed the connection.
    func waitForTheEnd() -> ViewfinderError.Code {
        while true {
            do {
                try command.waitForData(timeout: ScriptedResponder.patience, while: "test")
                try command.skipPayload(1, while: "test")
            } catch {
                return error.code
            }
        }
    }

    /// What the simulator first answers: `busy` or `refused` for an InitFail, `disconnected` when it closes the
    /// connection, or the packet's type.
    func firstAnswer() -> String {
        do {
            try command.waitForData(timeout: ScriptedResponder.patience, while: "test")
            switch try command.readPacket(while: "test") {
            case .initFail(let reason): return reason == PTPIPInitFailReason.busy.rawValue ? "busy" : "refused"
            case let packet: return "\(packet.type)"
            }
        } catch {
            return error.code == .disconnected ? "disconnected" : "\(error.code)"
        }
    }

    /// Closes both connections.
    func close() {
        command.close()
        events.withLock { $0?.close() }
    }
}
