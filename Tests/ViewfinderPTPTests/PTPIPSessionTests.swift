import Synchronization
import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// The client session against a scripted peer over real loopback TCP: the protocol's mechanics and its error paths.
@Suite struct PTPIPSessionTests {
    static func configuration(_ responder: ScriptedResponder, timeout: Duration = .seconds(5))
        -> PTPIPTransport.Configuration
    {
        PTPIPTransport.Configuration(
            port: responder.port, clientName: "tests", connectTimeout: .seconds(5), responseTimeout: timeout,
            dataOutChunkSize: 1000, eventProbeInterval: nil)
    }

    /// A small event buffer, so that dropping events is easy to cause.
    static let session = PTPSession.Configuration(eventBufferCapacity: 4)

    @Test func handshakeOpensTheSessionWithIncreasingTransactionIDs() async throws {
        let seen = Locked<[UInt32]>([])
        let responder = try ScriptedResponder { peer in
            for _ in 0..<3 {
                let request = try peer.expectRequest(.getObject)
                try peer.respond(.ok, request.transactionID)
            }
            let close = try peer.expectRequest(.closeSession)
            try peer.respond(.ok, close.transactionID)
            seen.withLock { $0 = peer.transactionIDs }
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        #expect(session.state == .open)
        #expect(session.deviceInfo == ScriptedResponder.deviceInfo)
        #expect((session.transport as? PTPIPTransport)?.responderName == "Scripted")
        #expect((session.transport as? PTPIPTransport)?.connectionNumber == 1)
        for _ in 0..<3 {
            let result = try await session.transaction(.getObject, parameters: [1])
            #expect(result.response.code == .ok)
            #expect(result.data.isEmpty)
        }
        await session.close()
        #expect(session.state == .closed(nil))
        #expect(try await responder.recordedFailures().isEmpty)
        // OpenSession and GetDeviceInfo were 0 and 1.
        #expect(seen.withLock { $0 } == [0, 1, 2, 3, 4, 5])
    }

    @Test func dataInArrivesWholeInManyPackets() async throws {
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let responder = try ScriptedResponder { peer in
            let first = try peer.expectRequest(.getObject)
            try peer.sendData(payload, first.transactionID, chunkSize: 4096)
            let second = try peer.expectRequest(.getObject)
            try peer.sendData(payload, second.transactionID, chunkSize: 100_000)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        let reports = Locked<[PTPTransferProgress]>([])
        let collected = try await session.transaction(.getObject, parameters: [7]) { progress in
            reports.withLock { $0.append(progress) }
        }
        #expect(collected.data == payload)
        let progress = reports.withLock { $0 }
        #expect(progress.last == PTPTransferProgress(completedBytes: payload.count, totalBytes: payload.count))
        #expect(progress.map(\.completedBytes) == progress.map(\.completedBytes).sorted())

        let streamed = Locked<[UInt8]>([])
        let response = try await session.transaction(.getObject, parameters: [7]) { chunk in
            streamed.withLock { $0.append(contentsOf: chunk) }
        }
        #expect(response.code == .ok)
        #expect(streamed.withLock { $0 } == payload)
        #expect(try await responder.recordedFailures().isEmpty)
    }

    @Test func dataOutIsSentInChunksAndEndsWithEndData() async throws {
        let payload = (0..<2500).map { UInt8(truncatingIfNeeded: $0) }
        let received = Locked<[UInt8]>([])
        let responder = try ScriptedResponder { peer in
            let request = try peer.expectRequest(.setDevicePropValue)
            guard case .startData(_, 2500) = try peer.command.readPacket(while: "test") else {
                throw ViewfinderError(.malformedData, "no StartData of 2500 bytes")
            }
            var bytes: [UInt8] = []
            var types: [Bool] = []
            while bytes.count < 2500 {
                guard case .data(let isLast, let id, let count) = try peer.command.readNext(while: "test"),
                    id == request.transactionID
                else { throw ViewfinderError(.malformedData, "not a data packet") }
                var chunk = [UInt8](repeating: 0, count: count)
                try chunk.withUnsafeMutableBytes { try peer.command.readPayload(into: $0, while: "test") }
                bytes += chunk
                types.append(isLast)
            }
            guard types == [false, false, true] else {
                throw ViewfinderError(.malformedData, "expected Data, Data, EndData, got \(types)")
            }
            received.withLock { $0 = bytes }
            try peer.respond(.ok, request.transactionID)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        _ = try await session.transaction(.setDevicePropValue, parameters: [0x500F], sending: payload)
        #expect(try await responder.recordedFailures().isEmpty)
        #expect(received.withLock { $0 } == payload)
    }

    @Test func failureResponseThrowsButKeepsTheSessionOpen() async throws {
        let responder = try ScriptedResponder { peer in
            let bad = try peer.expectRequest()
            try peer.respond(.invalidObjectHandle, bad.transactionID)
            let good = try peer.expectRequest()
            try peer.sendData([1, 2, 3], good.transactionID)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        let error = await #expect(throws: ViewfinderError.self) {
            try await session.transaction(.getObject, parameters: [99])
        }
        #expect(error?.code == .protocolFailure)
        #expect(error?.responseCode == PTPResponseCode.invalidObjectHandle.rawValue)
        #expect(session.state == .open)
        #expect(try await session.transaction(.getObject, parameters: [1]).data == [1, 2, 3])
        #expect(try await responder.recordedFailures().isEmpty)
    }

    @Test func peerClosingMidTransferEndsTheSession() async throws {
        let responder = try ScriptedResponder { peer in
            let request = try peer.expectRequest(.getObject)
            try peer.command.send(.startData(transactionID: request.transactionID, totalLength: 10_000), while: "test")
            try [UInt8](repeating: 1, count: 5000).withUnsafeBytes {
                try peer.command.sendData(transactionID: request.transactionID, $0, isLast: false, while: "test")
            }
            peer.command.socket.shutdown()
            peer.events.socket.shutdown()
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        let error = await #expect(throws: ViewfinderError.self) {
            try await session.transaction(.getObject, parameters: [1])
        }
        #expect(error?.code == .disconnected)
        guard case .closed(let reason?) = session.state else {
            Issue.record("the session should be closed with a reason, it is \(session.state)")
            return
        }
        #expect(reason.code == .disconnected)
        let later = await #expect(throws: ViewfinderError.self) { try await session.transaction(.getObject) }
        #expect(later?.code == .notConnected)
        await #expect(throws: ViewfinderError.self) {
            for try await _ in session.events {}
        }
    }

    /// A camera that does not answer in time fails the transaction; the connection is between packets, so the
    /// session stays, for the camera's late answer to be skipped; a second timeout in a row ends it.
    @Test func aSilentPeerTimesOutAndIsGivenUpOnTheSecondTime() async throws {
        let release = Atomic(false)
        let responder = try ScriptedResponder { peer in
            _ = try peer.expectRequest(.getObject)
            _ = try peer.expectRequest(.getObject)
            while !release.load(ordering: .acquiring) {
                pause(milliseconds: 5)
            }
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder, timeout: HostilePeerTests.silence))
        let first = await #expect(throws: ViewfinderError.self) {
            try await session.transaction(.getObject, parameters: [1])
        }
        #expect(first?.code == .timeout)
        #expect(session.state == .open)
        let second = await #expect(throws: ViewfinderError.self) {
            try await session.transaction(.getObject, parameters: [2])
        }
        release.store(true, ordering: .releasing)
        #expect(second?.code == .timeout)
        guard case .closed(let reason?) = session.state else {
            Issue.record("a second timeout in a row should end the session")
            return
        }
        #expect(reason.code == .timeout)
    }

    /// A camera that answers after the client gave up: the transaction failed with a timeout, the late answer is
    /// skipped when it comes, and the next transaction gets its own.
    @Test func aLateAnswerAfterATimeoutIsSkipped() async throws {
        let timedOut = Atomic(false)
        let responder = try ScriptedResponder { peer in
            let late = try peer.expectRequest(.getObject).transactionID
            while !timedOut.load(ordering: .acquiring) {
                pause(milliseconds: 5)
            }
            try peer.sendData([9, 9, 9], late)
            let next = try peer.expectRequest(.getObject).transactionID
            try peer.sendData([1], next)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder, timeout: HostilePeerTests.silence))
        let error = await #expect(throws: ViewfinderError.self) {
            try await session.transaction(.getObject, parameters: [1])
        }
        timedOut.store(true, ordering: .releasing)
        #expect(error?.code == .timeout)
        #expect(try await session.transaction(.getObject, parameters: [2]).data == [1])
        #expect(session.state == .open)
        #expect((session.transport as? PTPIPTransport)?.staleRepliesSkipped == 2)
        await session.close()
        #expect(try await responder.recordedFailures() == [])
    }

    /// A transaction given a longer wait, such as a capture whose answer comes after its exposure, waits that long.
    @Test func aTransactionCanWaitLongerThanTheTransport() async throws {
        let responder = try ScriptedResponder { peer in
            let id = try peer.expectRequest(.initiateCapture).transactionID
            pause(milliseconds: 1500)
            try peer.respond(.ok, id)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder, timeout: .seconds(1)))
        _ = try await session.initiateCapture(timeout: .seconds(30))
        #expect(session.state == .open)
        await session.close()
        #expect(try await responder.recordedFailures() == [])
    }

    @Test func malformedAnswersEndTheSession() async throws {
        let responder = try ScriptedResponder { peer in
            let request = try peer.expectRequest(.getObject)
            try peer.respond(.ok, request.transactionID &+ 5)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        let error = await #expect(throws: ViewfinderError.self) { try await session.transaction(.getObject) }
        #expect(error?.code == .malformedData)
        #expect(session.state != .open)
    }

    @Test func hugeControlPacketIsRejectedBeforeAllocating() async throws {
        let responder = try ScriptedResponder { peer in
            _ = try peer.expectRequest(.getObject)
            // A response packet that claims 3 GiB.
            let header: [UInt8] = [0x00, 0x00, 0x00, 0xC0, 7, 0, 0, 0]
            try header.withUnsafeBytes { try peer.command.socket.send([$0], timeout: .seconds(1), while: "test") }
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        let error = await #expect(throws: ViewfinderError.self) { try await session.transaction(.getObject) }
        #expect(error?.code == .malformedData)
    }

    @Test func moreDataThanAnnouncedIsMalformed() async throws {
        let responder = try ScriptedResponder { peer in
            let request = try peer.expectRequest(.getObject)
            try peer.command.send(.startData(transactionID: request.transactionID, totalLength: 10), while: "test")
            try [UInt8](repeating: 1, count: 20).withUnsafeBytes {
                try peer.command.sendData(transactionID: request.transactionID, $0, isLast: true, while: "test")
            }
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        let error = await #expect(throws: ViewfinderError.self) { try await session.transaction(.getObject) }
        #expect(error?.code == .malformedData)
    }

    @Test func refusedConnectionSaysWhy() async throws {
        let responder = try ScriptedResponder(initFail: .busy) { _ in }
        var configuration = Self.configuration(responder)
        configuration.busyRetryTimeout = .zero
        let error = await #expect(throws: ViewfinderError.self) {
            try await PTPSession.connect(to: "127.0.0.1", configuration: configuration, session: Self.session)
        }
        #expect(error?.code == .deviceBusy)
        #expect(error?.message.contains("busy") == true)
    }

    @Test func nothingListeningFailsToConnect() async throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort
        listener.close()
        let error = await #expect(throws: ViewfinderError.self) {
            try await PTPSession.connect(to: "127.0.0.1", configuration: .init(port: port))
        }
        #expect(error?.code == .connectionFailed)
    }

    @Test func eventsArriveInOrderAndTheBufferIsBounded() async throws {
        let responder = try ScriptedResponder { peer in
            try peer.events.send(.probeRequest, while: "test")
            guard try peer.events.readPacket(while: "test") == .probeResponse else {
                throw ViewfinderError(.malformedData, "the probe was not answered")
            }
            for handle in 1...10 {
                try peer.sendEvent(.objectAdded, parameters: [UInt32(handle)])
            }
            let request = try peer.expectRequest(.getObject)
            try peer.respond(.ok, request.transactionID)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        try await waitUntil("the oldest events to be dropped") { session.droppedEventCount >= 6 }
        #expect(session.droppedEventCount == 6)
        var handles: [UInt32] = []
        for try await event in session.events {
            #expect(event.code == .objectAdded)
            handles += event.parameters
            if handles.count == 4 { break }
        }
        #expect(handles == [7, 8, 9, 10])
        _ = try await session.transaction(.getObject)
        #expect(try await responder.recordedFailures().isEmpty)
    }

    @Test func cancellingDuringTheDataPhaseDrainsAndKeepsTheSession() async throws {
        let responder = try ScriptedResponder { peer in
            let request = try peer.expectRequest(.getObject)
            try peer.command.send(.startData(transactionID: request.transactionID, totalLength: 4 << 20), while: "t")
            let piece = [UInt8](repeating: 9, count: 1 << 20)
            for index in 0..<4 {
                try piece.withUnsafeBytes {
                    try peer.command.sendData(transactionID: request.transactionID, $0, isLast: index == 3, while: "t")
                }
            }
            try peer.respond(.ok, request.transactionID)
            let next = try peer.expectRequest(.getObject)
            try peer.sendData([5], next.transactionID)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        // The consumer cancels the download at its first slice, on the session's I/O thread, so the cancellation
        // lands mid-phase however late the test itself gets to run.
        let download = Locked<Task<PTPResponse, any Error>?>(nil)
        let slices = Atomic(0)
        let task = Task {
            try await session.transaction(.getObject, parameters: [1]) { _ in
                guard slices.add(1, ordering: .relaxed).oldValue == 0 else { return }
                while download.withLock({ $0 }) == nil { pause(milliseconds: 1) }
                download.withLock { $0?.cancel() }
            }
        }
        download.withLock { $0 = task }
        let error = await #expect(throws: ViewfinderError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(slices.load(ordering: .relaxed) == 1)
        #expect(session.state == .open)
        #expect(try await session.transaction(.getObject).data == [5])
        #expect(try await responder.recordedFailures().isEmpty)
    }

    @Test func consumerErrorsAreRethrownAfterDraining() async throws {
        struct Full: Error {}
        let responder = try ScriptedResponder { peer in
            let request = try peer.expectRequest(.getObject)
            try peer.sendData([UInt8](repeating: 3, count: 50_000), request.transactionID, chunkSize: 1000)
            let next = try peer.expectRequest(.getObject)
            try peer.sendData([6], next.transactionID)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder), session: Self.session)
        await #expect(throws: Full.self) {
            try await session.transaction(.getObject) { _ in throw Full() }
        }
        #expect(session.state == .open)
        #expect(try await session.transaction(.getObject).data == [6])
    }

    @Test func dataLargerThanTheInMemoryLimitNeedsStreaming() async throws {
        let responder = try ScriptedResponder { peer in
            let request = try peer.expectRequest(.getObject)
            try peer.sendData([UInt8](repeating: 1, count: 5000), request.transactionID, chunkSize: 1000)
            let next = try peer.expectRequest(.getObject)
            try peer.sendData([7], next.transactionID)
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder),
            session: PTPSession.Configuration(maximumInMemoryDataLength: 4096))
        let error = await #expect(throws: ViewfinderError.self) { try await session.transaction(.getObject) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("streaming") == true)
        #expect(try await session.transaction(.getObject).data == [7])
    }
}

/// Sleeps the calling thread, for scripts that run on the responder's own thread.
func pause(milliseconds: Int) {
    var request = timespec(tv_sec: 0, tv_nsec: milliseconds * 1_000_000)
    nanosleep(&request, nil)
}
