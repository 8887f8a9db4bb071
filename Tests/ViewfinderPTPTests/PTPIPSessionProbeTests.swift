import Synchronization
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// Probing a silent event connection, against a scripted peer over loopback TCP.
@Suite(.timeLimit(.minutes(3))) struct PTPIPSessionProbeTests {
    static func configuration(_ responder: ScriptedResponder, probeInterval: Duration?) -> PTPIPTransport.Configuration
    {
        PTPIPTransport.Configuration(
            port: responder.port, clientName: "tests", responseTimeout: .seconds(2),
            eventProbeInterval: probeInterval)
    }

    @Test func aPeerThatAnswersProbesKeepsTheSessionThroughSilence() async throws {
        let answered = Atomic(0)
        let release = Atomic(false)
        let responder = try ScriptedResponder { peer in
            while !release.load(ordering: .acquiring) {
                let packet: PTPIPPacket
                do {
                    packet = try peer.events.readPacket(while: "test")
                } catch  where release.load(ordering: .acquiring) {
                    return  // the client closed the session, as the test asked
                }
                guard packet == .probeRequest else {
                    throw ViewfinderError(.malformedData, "expected a probe request on the event connection")
                }
                try peer.events.send(.probeResponse, while: "test")
                answered.add(1, ordering: .releasing)
            }
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder, probeInterval: .milliseconds(100)))
        try await waitUntil("three probes answered") { answered.load(ordering: .acquiring) >= 3 }
        #expect(session.state == .open)
        release.store(true, ordering: .releasing)
        await session.close()
        #expect(try await responder.recordedFailures() == [])
    }

    @Test func aPeerThatStopsAnsweringProbesEndsTheSessionWithATimeout() async throws {
        let release = Atomic(false)
        let responder = try ScriptedResponder { peer in
            guard try peer.events.readPacket(while: "test") == .probeRequest else {
                throw ViewfinderError(.malformedData, "expected a probe request on the event connection")
            }
            try peer.events.send(.probeResponse, while: "test")
            guard try peer.events.readPacket(while: "test") == .probeRequest else {
                throw ViewfinderError(.malformedData, "expected a second probe request on the event connection")
            }
            while !release.load(ordering: .acquiring) {
                pause(milliseconds: 5)
            }
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder, probeInterval: .milliseconds(100)))
        var failure: (any Error)?
        do {
            for try await _ in session.events {}
        } catch {
            failure = error
        }
        release.store(true, ordering: .releasing)
        let error = try #require(failure as? ViewfinderError)
        #expect(error.code == .timeout)
        #expect(error.message.contains("did not answer a probe"))
        guard case .closed(let reason?) = session.state else {
            Issue.record("an unanswered probe should end the session")
            return
        }
        #expect(reason.code == .timeout)
        #expect(try await responder.recordedFailures() == [])
    }

    /// Many real cameras do not speak probes: one that never answers the first is not probed again, and its
    /// session goes on, hearing its events.
    @Test func aPeerThatNeverAnswersAProbeIsNotProbedAgain() async throws {
        let release = Atomic(false)
        let responder = try ScriptedResponder { peer in
            guard try peer.events.readPacket(while: "test") == .probeRequest else {
                throw ViewfinderError(.malformedData, "expected a probe request on the event connection")
            }
            while !release.load(ordering: .acquiring) {
                pause(milliseconds: 5)
            }
            try peer.events.send(.event(code: .objectAdded, transactionID: 0, parameters: [7]), while: "test")
            // Until the client closes the connection, nothing more comes: no second probe.
            while let packet = try? peer.events.readPacket(while: "test") {
                guard packet != .probeRequest else {
                    throw ViewfinderError(.malformedData, "a second probe came after the first went unanswered")
                }
            }
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder, probeInterval: .milliseconds(100)))
        let transport = try #require(session.transport as? PTPIPTransport)
        try await waitUntil("the transport to stop probing") { transport.probing.withLock { $0 } == .stopped }
        release.store(true, ordering: .releasing)
        var events = session.events.makeAsyncIterator()
        #expect(try await events.next()?.parameters == [7])
        #expect(session.state == .open)
        await session.close()
        #expect(try await responder.recordedFailures() == [])
    }

    @Test func withoutProbingASilentPeerKeepsTheSession() async throws {
        let release = Atomic(false)
        let responder = try ScriptedResponder { peer in
            while !release.load(ordering: .acquiring) {
                pause(milliseconds: 5)
            }
            try peer.events.send(.event(code: .objectAdded, transactionID: 0, parameters: [8]), while: "test")
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: Self.configuration(responder, probeInterval: nil))
        let transport = try #require(session.transport as? PTPIPTransport)
        // The event thread has reached its wait for events, with nothing to send.
        try await waitUntil("the event thread to wait") { transport.probing.withLock { $0 } == .off }
        release.store(true, ordering: .releasing)
        var events = session.events.makeAsyncIterator()
        #expect(try await events.next()?.parameters == [8])
        #expect(session.state == .open)
        await session.close()
    }
}
