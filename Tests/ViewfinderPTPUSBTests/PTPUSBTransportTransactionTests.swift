import Testing
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

@testable import ViewfinderPTPUSB

#if canImport(Glibc)
import Glibc
#endif

/// Transactions over USB with what real cameras send: late answers of earlier transactions, zero-length packets after
/// phases that fill their last packet, data phases of unknown length, and stalls.
@Suite struct PTPUSBTransportTransactionTests {
    /// A camera that answers every command with OK, after the data phase `data` gives for it, if any.
    func camera(data: @escaping @Sendable (ScriptedUSBDevice.Command) -> Int? = { _ in nil }) throws
        -> (ScriptedUSBDevice, PTPTransactionRunner)
    {
        let device = ScriptedUSBDevice()
        device.onCommand.withLock {
            $0 = { [unowned device] command in
                if let payload = data(command) {
                    device.writeDataPhase(transactionID: command.transactionID, code: command.code, payload: payload)
                }
                device.write(ScriptedUSBDevice.response(transactionID: command.transactionID))
            }
        }
        let runner = PTPTransactionRunner(
            transport: try device.openTransport(), configuration: PTPSession.Configuration())
        return (device, runner)
    }

    func collect(_ runner: PTPTransactionRunner, _ operation: PTPOperationCode = .getObject) throws(ViewfinderError)
        -> PTPTransactionResult
    {
        var consumerError: (any Error)?
        return try runner.run(
            operation, parameters: [7], dataOut: nil, dataIn: .collect(progress: nil), cancellation: nil,
            consumerError: &consumerError)
    }

    // MARK: Transaction IDs

    @Test func answersOfEarlierTransactionsAreSkippedAndCounted() throws {
        let device = ScriptedUSBDevice()
        let transport = try device.openTransport()
        // Transaction 3's data phase (several transfers), its response, and a phase of unknown length, all late.
        device.writeDataPhase(transactionID: 3, payload: 200_000)
        device.write(ScriptedUSBDevice.response(transactionID: 3))
        device.writeDataPhase(transactionID: 4, payload: 100_000, announced: 0xFFFF_FFFF)
        device.write(ScriptedUSBDevice.response(.ok, transactionID: 5, parameters: [1]))
        try transport.send(PTPRequest(code: .getNumObjects, transactionID: 5), hasDataOut: false)
        let phase = try transport.receivePhase(of: 5)
        #expect(phase == .response(PTPResponse(code: .ok, transactionID: 5, parameters: [1])))
        #expect(transport.staleContainerCount == 3 && device.bulkInIsEmpty)
    }

    @Test func anAnswerOfATransactionNotStartedEndsTheSession() throws {
        let device = ScriptedUSBDevice()
        let transport = try device.openTransport()
        device.write(ScriptedUSBDevice.response(transactionID: 9))
        let error = #expect(throws: ViewfinderError.self) { try transport.receivePhase(of: 5) }
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("transaction 9, which has not started") == true)
        #expect(transport.staleContainerCount == 0)
    }

    @Test func openingASessionSkipsEveryAnswerOfTheSessionBefore() throws {
        let device = ScriptedUSBDevice()
        let transport = try device.openTransport()
        device.write(ScriptedUSBDevice.response(transactionID: 57))
        device.write(ScriptedUSBDevice.response(.sessionAlreadyOpen, transactionID: 0))
        #expect(
            try transport.receivePhase(of: 0) == .response(PTPResponse(code: .sessionAlreadyOpen, transactionID: 0)))
        #expect(transport.staleContainerCount == 1)
    }

    @Test func endlessLateAnswersAreABoundedError() throws {
        let device = ScriptedUSBDevice()
        let transport = try device.openTransport()
        for id in 1...UInt32(PTPUSBTransport.maximumStaleContainers + 1) {
            device.write(ScriptedUSBDevice.response(transactionID: id))
        }
        let error = #expect(throws: ViewfinderError.self) { try transport.receivePhase(of: 100) }
        #expect(error?.code == .malformedData && error?.message.contains("earlier transactions") == true)
    }

    @Test func transactionIDsCompareAcrossTheWrap() {
        #expect(PTPUSBTransport.isStale(4, during: 5) && !PTPUSBTransport.isStale(6, during: 5))
        #expect(PTPUSBTransport.isStale(0xFFFF_FFFE, during: 1) && !PTPUSBTransport.isStale(1, during: 0xFFFF_FFFE))
        #expect(PTPUSBTransport.isStale(0xFFFF_FFFE, during: 0) && !PTPUSBTransport.isStale(0, during: 0))
    }

    // MARK: Packets

    @Test func aZeroLengthPacketAfterAPhaseThatFillsItsLastPacketIsSkipped() throws {
        // 12 + 1012 bytes: two whole 512-byte packets, then the zero-length packet.
        let (device, runner) = try camera { _ in 1012 }
        let result = try collect(runner)
        #expect(result.data == ScriptedUSBDevice.pattern(1012) && result.response.code == .ok)
        #expect(device.bulkInIsEmpty)
        #expect(try collect(runner).data.count == 1012)
    }

    @Test func aPhaseOfUnknownLengthIsReadUntilItsShortPacket() throws {
        let lengths = Locked([100_000, 512 * 300 - 12])
        let device = ScriptedUSBDevice()
        device.onCommand.withLock {
            $0 = { [unowned device] command in
                let payload = lengths.withLock { $0.removeFirst() }
                device.writeDataPhase(transactionID: command.transactionID, payload: payload, announced: 0xFFFF_FFFF)
                device.write(ScriptedUSBDevice.response(transactionID: command.transactionID))
            }
        }
        let runner = PTPTransactionRunner(
            transport: try device.openTransport(), configuration: PTPSession.Configuration())
        // Ending with a short packet, then ending with whole packets and a zero-length packet.
        #expect(try collect(runner).data == ScriptedUSBDevice.pattern(100_000))
        #expect(try collect(runner).data == ScriptedUSBDevice.pattern(512 * 300 - 12))
        #expect(device.bulkInIsEmpty)
    }

    // MARK: Stalls

    @Test func aStalledRequestIsClearedAndSentOnceMore() throws {
        let (device, runner) = try camera()
        device.stallBulkOut(times: 1)
        #expect(try collect(runner, .getNumObjects).response.code == .ok)
        #expect(device.steps == [.status, .clearHalt(0x02), .status])
        #expect(device.commands.map(\.code) == [PTPOperationCode.getNumObjects.rawValue])
    }

    @Test func aRequestStalledTwiceIsAClearError() throws {
        let (device, runner) = try camera()
        device.stallBulkOut(times: 2)
        let error = #expect(throws: ViewfinderError.self) { try collect(runner, .getNumObjects) }
        #expect(error?.code == .io && error?.errno == EPIPE)
        #expect(error?.message.contains("stalled endpoint 0x02 twice while sending GetNumObjects") == true)
        #expect(device.steps.suffix(1) == [.clearHalt(0x02)])
    }

    @Test func aStallBeforeTheResponseIsClearedAndTheResponseRead() throws {
        let device = ScriptedUSBDevice()
        let transport = try device.openTransport()
        device.stallBulkIn()
        device.write(ScriptedUSBDevice.response(transactionID: 2))
        #expect(try transport.receivePhase(of: 2) == .response(PTPResponse(code: .ok, transactionID: 2)))
        #expect(device.steps == [.status, .clearHalt(0x81), .status])
    }

    @Test func aStallThatTheCameraExplainsFailsTheTransactionAndKeepsTheSession() throws {
        let (device, runner) = try camera()
        device.onCommand.withLock {
            let answer = $0
            $0 = { [unowned device] command in
                guard command.code == PTPOperationCode.getObject.rawValue else { return answer!(command) }
                // A phase of 10 000 bytes that the camera gives up after its first 1000.
                device.write(
                    ScriptedUSBDevice.container(
                        2, code: command.code, transactionID: command.transactionID, length: 10_012)
                        + ScriptedUSBDevice.pattern(1000))
                device.stallBulkIn()
                device.answerStatus([.status(.transactionCancelled, halted: [0x81])])
            }
        }
        let error = #expect(throws: ViewfinderError.self) { try collect(runner) }
        // A refusal: the session stays open.
        #expect(error?.code == .protocolFailure && error?.responseCode == PTPResponseCode.transactionCancelled.rawValue)
        #expect(error?.message.contains("gives its status as") == true)
        #expect(device.steps.contains(.clearHalt(0x81)))
        #expect(try collect(runner, .getNumObjects).response.code == .ok)
    }

    @Test func aStallTheCameraDoesNotExplainEndsTheSession() throws {
        let (device, runner) = try camera()
        device.onCommand.withLock {
            $0 = { [unowned device] command in
                device.write(
                    ScriptedUSBDevice.container(
                        2, code: command.code, transactionID: command.transactionID, length: 10_012)
                        + ScriptedUSBDevice.pattern(1000))
                device.stallBulkIn()
            }
        }
        let error = #expect(throws: ViewfinderError.self) { try collect(runner) }
        // A transport failure: the session ends.
        #expect(error?.code == .io && error?.errno == EPIPE)
        #expect(error?.message.contains("in the middle of a phase") == true)
    }
}
