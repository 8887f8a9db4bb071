import Synchronization
import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// The client against cameras that break the protocol on purpose, over real loopback TCP: lengths that lie, packets
/// cut short, wrong transaction IDs, unknown packet types, silence, floods, and connections that end mid-phase.
///
/// Each case must fail with a clear `ViewfinderError` and leave nothing behind: once the session is closed, no thread
/// or socket of it is left (counted in `/proc` by port). That nothing the peer claims is allocated is held by
/// fuzz-ptp-client, whose allocations libFuzzer limits to 64 MiB, and the memory while a gigabyte is drained is a
/// figure of ptp-benchmark: resident memory is no measure in a test process that runs other tests meanwhile.
@Suite struct HostilePeerTests {
    /// Small limits, so a buffer sized by the peer would stand out.
    static func configuration(port: UInt16, timeout: Duration = .seconds(5)) -> PTPIPTransport.Configuration {
        PTPIPTransport.Configuration(
            port: port, clientName: "hostile peer tests", connectTimeout: .seconds(5), responseTimeout: timeout,
            dataOutChunkSize: 1000, eventProbeInterval: nil)
    }

    static let session = PTPSession.Configuration(
        maximumInMemoryDataLength: 1 << 20, maximumDatasetLength: 1 << 16, eventBufferCapacity: 16)

    /// The response timeout of the cases where the peer falls silent: short, yet long enough for the peer's thread to
    /// do its handshake on a loaded machine.
    static let silence = Duration.seconds(1)

    /// Connects to `port`, runs `body`, closes the session and checks that none of its threads and sockets is left.
    func withSession(
        port: UInt16, timeout: Duration = .seconds(5), _ body: (PTPSession) async throws -> Void
    ) async throws {
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(port: port, timeout: timeout), session: Self.session)
        // The count sees the session's two threads and its sockets, so that it seeing none at the end means something.
        try await waitUntil("the session's threads to show: \(PortResources.held(for: port))") {
            PortResources.held(for: port).threads == ["ptp\(port)-cmd", "ptp\(port)-events"]
        }
        #expect(PortResources.held(for: port).sockets.count >= 2)
        do {
            try await body(session)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
        try await expectReleased(port)
    }

    /// Waits until no thread or socket of the port is left.
    func expectReleased(_ port: UInt16) async throws {
        try await waitUntil("the threads and sockets of port \(port) to go: \(PortResources.held(for: port))") {
            PortResources.held(for: port) == .none
        }
    }

    /// Runs `transaction` and checks it fails with `code` and ends the session with that error.
    func expectSessionEnd(
        _ session: PTPSession, with code: ViewfinderError.Code, _ transaction: () async throws -> Void
    ) async {
        let error = await #expect(throws: ViewfinderError.self) { try await transaction() }
        #expect(error?.code == code, "\(error?.message ?? "no error")")
        guard case .closed(let reason?) = session.state else {
            Issue.record("the session should have ended, it is \(session.state)")
            return
        }
        #expect(reason.code == code)
        let later = await #expect(throws: ViewfinderError.self) { try await session.transaction(.getObject) }
        #expect(later?.code == .notConnected)
    }

    /// Runs GetObject against a camera that answers it with `answer` (given the transaction ID), and checks that it
    /// ends the session with `code` and that nothing of the session is left.
    func expectGetObject(
        endingTheSessionWith code: ViewfinderError.Code, timeout: Duration = .seconds(5),
        answer: @escaping @Sendable (ScriptedResponder.Peer, UInt32) throws -> Void
    ) async throws {
        let responder = try ScriptedResponder { peer in
            try answer(peer, try peer.expectRequest(.getObject).transactionID)
        }
        try await withSession(port: responder.port, timeout: timeout) { session in
            await expectSessionEnd(session, with: code) { _ = try await session.transaction(.getObject) }
        }
    }

    @Test(arguments: [0xC000_0000, 0xFFFF_FFFF, 0x8000_0000, 7, 0] as [UInt32])
    func lengthsBeyondTheLimitOrShorterThanAHeaderAreMalformed(length: UInt32) async throws {
        try await expectGetObject(endingTheSessionWith: .malformedData) { peer, _ in
            try peer.command.sendRaw(header(length: length, type: 7))
        }
    }

    @Test func aDataPacketLongerThanItsPhaseIsMalformedBeforeItIsRead() async throws {
        try await expectGetObject(endingTheSessionWith: .malformedData) { peer, id in
            try peer.command.send(.startData(transactionID: id, totalLength: 10), while: "test")
            try peer.command.sendRaw(header(length: 0xFFFF_FFF0, type: 10) + le32(id))
        }
    }

    @Test func aPacketCutShortThenClosedIsADisconnection() async throws {
        try await expectGetObject(endingTheSessionWith: .disconnected) { peer, _ in
            try peer.command.sendRaw(header(length: 20, type: 7) + [1, 0])
            peer.command.socket.shutdown()
        }
    }

    @Test func aPacketCutShortThenSilenceTimesOut() async throws {
        try await expectGetObject(endingTheSessionWith: .timeout, timeout: Self.silence) { peer, _ in
            try peer.command.sendRaw(header(length: 20, type: 7) + [1, 0])
            try peer.waitForClient()
        }
    }

    /// The packets a peer may answer a GetObject request with under a transaction ID it cannot have.
    enum WrongID: CaseIterable {
        /// A response, or the start of a data phase, for a transaction not yet asked for.
        case futureResponse, futureStartData
        /// Data of another transaction inside this one's data phase.
        case dataInsideThePhase
    }

    @Test(arguments: WrongID.allCases)
    func impossibleTransactionIDsAreMalformed(_ wrong: WrongID) async throws {
        try await expectGetObject(endingTheSessionWith: .malformedData) { peer, id in
            switch wrong {
            case .futureResponse:
                try peer.respond(.ok, id &+ 1)
            case .futureStartData:
                try peer.command.send(.startData(transactionID: id &+ 1, totalLength: 4), while: "test")
            case .dataInsideThePhase:
                try peer.command.send(.startData(transactionID: id, totalLength: 4), while: "test")
                try peer.command.send(.endData(transactionID: id &- 1, payload: [1, 2, 3, 4]), while: "test")
            }
        }
    }

    /// A camera that answers a transaction after the client gave up on it (a response, or a whole data phase, sent
    /// late) has its late replies read and dropped, as libgphoto2 drops them: the transaction under way gets its own
    /// answer, and the session goes on.
    @Test func lateRepliesToEndedTransactionsAreSkipped() async throws {
        let responder = try ScriptedResponder { peer in
            let id = try peer.expectRequest(.getObject).transactionID
            try peer.respond(.ok, id &- 1)
            try peer.command.send(.startData(transactionID: id &- 2, totalLength: 3), while: "test")
            try peer.command.send(.data(transactionID: id &- 2, payload: [9, 9]), while: "test")
            try peer.command.send(.endData(transactionID: id &- 2, payload: [9]), while: "test")
            try peer.respond(.deviceBusy, id &- 2)
            try peer.sendData([1, 2, 3, 4], id)
            let next = try peer.expectRequest(.getObject).transactionID
            try peer.sendData([5], next)
        }
        try await withSession(port: responder.port) { session in
            let result = try await session.transaction(.getObject)
            #expect(result.data == [1, 2, 3, 4])
            #expect(try await session.transaction(.getObject).data == [5])
            #expect(session.state == .open)
            #expect((session.transport as? PTPIPTransport)?.staleRepliesSkipped == 3)
        }
        #expect(try await responder.recordedFailures() == [])
    }

    @Test func unknownPacketTypesAreMalformed() async throws {
        try await expectGetObject(endingTheSessionWith: .malformedData) { peer, _ in
            try peer.command.sendRaw(header(length: 8, type: 99))
        }
    }

    /// Packets an event connection must not carry.
    enum BadEvent: CaseIterable {
        case unknownType, beyondTheLimit

        var bytes: [UInt8] {
            switch self {
            case .unknownType:
                return header(length: 12, type: 42) + [0, 0, 0, 0]
            case .beyondTheLimit:
                let length = PTPIPTransport.maximumEventPacketLength + 100
                return header(length: UInt32(length), type: 8) + [UInt8](repeating: 0, count: length - 8)
            }
        }

        /// What the error says.
        var says: String {
            switch self {
            case .unknownType: "packet type 42"
            case .beyondTheLimit: "longer than the \(PTPIPTransport.maximumEventPacketLength) bytes allowed"
            }
        }
    }

    @Test(arguments: BadEvent.allCases)
    func aBadPacketOnTheEventConnectionEndsTheSession(_ bad: BadEvent) async throws {
        let responder = try ScriptedResponder { peer in
            // Once the session is open, the camera answers a request with the bad packet on the event connection.
            _ = try peer.expectRequest(.getObject)
            try peer.events.sendRaw(bad.bytes)
        }
        try await withSession(port: responder.port) { session in
            await #expect(throws: ViewfinderError.self) { _ = try await session.transaction(.getObject) }
            await #expect(throws: ViewfinderError.self) {
                for try await _ in session.events {}
            }
            guard case .closed(let reason?) = session.state else {
                Issue.record("the session should have ended, it is \(session.state)")
                return
            }
            #expect(reason.code == .malformedData)
            #expect(reason.message.contains("event connection") && reason.message.contains(bad.says), "\(reason)")
        }
    }

    @Test func aPeerThatClosesMidPhaseEndsTheSessionAndLeavesNothing() async throws {
        try await expectGetObject(endingTheSessionWith: .disconnected) { peer, id in
            try peer.command.send(.startData(transactionID: id, totalLength: 100_000), while: "test")
            try peer.command.send(.data(transactionID: id, payload: [UInt8](repeating: 1, count: 40_000)), while: "t")
            peer.command.socket.shutdown()
            peer.events.socket.shutdown()
        }
    }

    @Test func dataBeyondTheInMemoryLimitIsDrainedNotKept() async throws {
        let piece = [UInt8](repeating: 0xA5, count: 1 << 20)
        let responder = try ScriptedResponder { peer in
            let id = try peer.expectRequest(.getObject).transactionID
            // 1 GiB of a phase whose length the peer does not announce.
            try peer.command.send(.startData(transactionID: id, totalLength: .max), while: "test")
            for _ in 0..<1024 {
                try piece.withUnsafeBytes {
                    try peer.command.sendData(transactionID: id, $0, isLast: false, while: "t")
                }
            }
            try peer.command.send(.endData(transactionID: id, payload: []), while: "test")
            try peer.respond(.ok, id)
            let next = try peer.expectRequest(.getObject).transactionID
            try peer.sendData([7], next)
        }
        try await withSession(port: responder.port) { session in
            let error = await #expect(throws: ViewfinderError.self) { try await session.transaction(.getObject) }
            #expect(error?.code == .invalidArgument)
            #expect(session.state == .open)
            let next = try await session.transaction(.getObject)
            #expect(next.data == [7])
        }
    }

    /// A data phase announced beyond the in-memory limit is given up: the client asks the camera to stop it with a
    /// Cancel packet, and a phase that then ends early is the camera honouring that. (That the claim is never
    /// allocated is held by fuzz-ptp-client's allocation limit and measured by ptp-benchmark.)
    @Test func anAnnouncedLengthBeyondTheLimitIsNeverAllocated() async throws {
        let responder = try ScriptedResponder { peer in
            let id = try peer.expectRequest(.getObject).transactionID
            try peer.command.send(.startData(transactionID: id, totalLength: 5 << 30), while: "test")
            guard case .cancel(id) = try peer.command.readPacket(while: "test") else {
                throw ViewfinderError(.malformedData, "expected a Cancel packet for transaction \(id)")
            }
            try peer.command.send(.endData(transactionID: id, payload: [1, 2, 3]), while: "test")
            try peer.respond(.transactionCancelled, id)
        }
        try await withSession(port: responder.port) { session in
            let error = await #expect(throws: ViewfinderError.self) { try await session.transaction(.getObject) }
            #expect(error?.code == .invalidArgument, "\(error?.message ?? "")")
            #expect(session.state == .open)
        }
        #expect(try await responder.recordedFailures() == [])
    }

    @Test func aDatasetBeyondTheLimitIsRefusedAndTheSessionStays() async throws {
        let responder = try ScriptedResponder { peer in
            let id = try peer.expectRequest(.getObjectHandles).transactionID
            var writer = PTPDataWriter()
            writer.append(array: (0..<20_000).map { UInt32($0) })
            try peer.sendData(writer.bytes, id)
            let next = try peer.expectRequest(.getObjectHandles).transactionID
            var small = PTPDataWriter()
            small.append(array: [UInt32(5)])
            try peer.sendData(small.bytes, next)
        }
        try await withSession(port: responder.port) { session in
            let error = await #expect(throws: ViewfinderError.self) { try await session.objectHandles() }
            #expect(error?.code == .malformedData)
            #expect(error?.message.contains("maximumDatasetLength") == true)
            #expect(session.state == .open)
            let handles = try await session.objectHandles()
            #expect(handles == [5])
        }
    }

    /// Probes are no answer: a peer that only probes fails the transaction with a timeout, and a second such
    /// timeout in a row ends the session.
    @Test func probesInsteadOfAnAnswerTimeOut() async throws {
        let responder = try ScriptedResponder { peer in
            _ = try peer.expectRequest(.getObject)
            while true {
                try peer.command.send(.probeRequest, while: "probing")
                guard try peer.command.readPacket(while: "probing") == .probeResponse else { return }
                pause(milliseconds: 10)
            }
        }
        try await withSession(port: responder.port, timeout: Self.silence) { session in
            let first = await #expect(throws: ViewfinderError.self) { _ = try await session.transaction(.getObject) }
            #expect(first?.code == .timeout)
            await expectSessionEnd(session, with: .timeout) { _ = try await session.transaction(.getObject) }
        }
    }

    @Test func emptyDataPacketsInsteadOfDataTimeOut() async throws {
        try await expectGetObject(endingTheSessionWith: .timeout, timeout: Self.silence) { peer, id in
            try peer.command.send(.startData(transactionID: id, totalLength: 100), while: "test")
            while true {
                try peer.command.send(.data(transactionID: id, payload: []), while: "test")
                pause(milliseconds: 10)
            }
        }
    }

    @Test func aFloodOfEventsKeepsOnlyTheBufferedNewest() async throws {
        let count = 20_000
        let responder = try ScriptedResponder { peer in
            for handle in 1...count {
                try peer.sendEvent(.objectAdded, parameters: [UInt32(handle)])
            }
            let id = try peer.expectRequest(.getObject).transactionID
            try peer.respond(.ok, id)
        }
        try await withSession(port: responder.port) { session in
            try await waitUntil("the flood to be read") { session.droppedEventCount == count - 16 }
            _ = try await session.transaction(.getObject)
            var handles: [UInt32] = []
            for try await event in session.events {
                handles += event.parameters
                if handles.count == 16 { break }
            }
            #expect(handles == (count - 15...count).map { UInt32($0) })
            #expect(session.droppedEventCount == count - 16)
        }
    }

    /// Connects to a camera that opens with `script` and checks that connecting fails with `code` and leaves nothing.
    func expectConnecting(
        failsWith code: ViewfinderError.Code, timeout: Duration = .seconds(5),
        to script: @escaping @Sendable (RawResponder.Peer) throws -> Void
    ) async throws {
        let responder = try RawResponder(script)
        let error = await #expect(throws: ViewfinderError.self) {
            _ = try await PTPSession.connect(
                to: "127.0.0.1", configuration: Self.configuration(port: responder.port, timeout: timeout))
        }
        #expect(error?.code == code, "\(error?.message ?? "no error")")
        try await expectReleased(responder.port)
        #expect(responder.recordedFailures.isEmpty)
    }

    @Test func anEventConnectionThatIsNeverAcceptedTimesOut() async throws {
        try await expectConnecting(failsWith: .timeout, timeout: Self.silence) { peer in
            let command = try peer.acceptCommandConnection()
            let events = try peer.accept()
            _ = try events.readPacket(while: "reading InitEventRequest")
            peer.hold(events)
            peer.hold(command)
        }
    }

    @Test func aSilentHandshakeTimesOut() async throws {
        try await expectConnecting(failsWith: .timeout, timeout: Self.silence) { peer in
            let command = try peer.accept()
            _ = try command.readPacket(while: "reading InitCommandRequest")
            peer.hold(command)
        }
    }

    @Test func aFriendlyNameBeyondTheLimitIsMalformed() async throws {
        try await expectConnecting(failsWith: .malformedData) { peer in
            let command = try peer.accept()
            _ = try command.readPacket(while: "reading InitCommandRequest")
            let name = [UInt8](repeating: 0x41, count: 2 * (PTPIPPacket.maximumNameLength + 10)) + [0, 0]
            let payload = le32(1) + [UInt8](repeating: 7, count: 16) + name + le32(0x0001_0000)
            try command.sendRaw(header(length: UInt32(8 + payload.count), type: 2) + payload)
            peer.hold(command)
        }
    }
}

/// A PTP/IP header: the little-endian length and type.
func header(length: UInt32, type: UInt32) -> [UInt8] {
    le32(length) + le32(type)
}

/// A little-endian 32-bit word.
func le32(_ value: UInt32) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

extension PTPIPConnection {
    /// Sends bytes as they are, for peers that break the protocol.
    func sendRaw(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try socket.send([$0], timeout: .seconds(5), while: "sending raw bytes") }
    }
}
