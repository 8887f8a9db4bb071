import Testing
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

@testable import ViewfinderPTPUSB

/// A streamed download the caller gives up: the class's Cancel request stops the camera's data phase, instead of the
/// session reading the rest and dropping it.
@Suite struct PTPUSBTransportCancelTests {
    struct Enough: Error {}

    /// A camera that sends a gigabyte for GetObject and stops when cancelled, with what its buffer held still to
    /// go, busy until it is drained; it answers everything else with OK.
    func camera(refusingCancel: Bool = false, payload: Int = 1 << 30) throws
        -> (ScriptedUSBDevice, PTPTransactionRunner)
    {
        let device = ScriptedUSBDevice()
        device.onCommand.withLock {
            $0 = { [unowned device] command in
                if command.code == PTPOperationCode.getObject.rawValue {
                    device.writeDataPhase(transactionID: command.transactionID, payload: payload)
                }
                device.write(ScriptedUSBDevice.response(transactionID: command.transactionID))
            }
        }
        device.onClassRequest.withLock {
            $0 = { [unowned device] request in
                guard request == 0x64 else { return }
                device.stopSending()
                device.write(ScriptedUSBDevice.pattern(3000))
                device.answerStatus([.status(.deviceBusy)])
            }
        }
        if refusingCancel { device.refuseCancel() }
        let runner = PTPTransactionRunner(
            transport: try device.openTransport(), configuration: PTPSession.Configuration())
        return (device, runner)
    }

    /// Streams GetObject to a consumer that takes `slices` slices, then throws (or cancels `flag`).
    func download(
        _ runner: PTPTransactionRunner, slices: Int = 1, cancelling flag: PTPCancellationFlag? = nil,
        consumerError: inout (any Error)?
    ) throws(ViewfinderError) -> PTPTransactionResult {
        let taken = Locked(0)
        return try runner.run(
            .getObject, parameters: [7], dataOut: nil,
            dataIn: .stream(
                consumer: { _ in
                    let count = taken.withLock { taken in
                        taken += 1
                        return taken
                    }
                    guard count >= slices else { return }
                    if let flag { flag.cancel() } else { throw Enough() }
                }, progress: nil),
            cancellation: flag, consumerError: &consumerError)
    }

    @Test func aConsumerThatGivesUpCancelsTheCamerasDataPhase() throws {
        let (device, runner) = try camera()
        var consumerError: (any Error)?
        _ = try download(runner, consumerError: &consumerError)
        #expect(consumerError is Enough)
        // The first slice was read; the rest of the gigabyte was not.
        #expect(device.steps == [.status, .cancel(transactionID: 1), .status, .status])
        #expect(device.bytesRead < 2 << 20 && device.bulkInIsEmpty)
        // The next transaction is in step.
        var unused: (any Error)?
        let next = try runner.run(
            .getNumObjects, parameters: [], dataOut: nil, dataIn: .collect(progress: nil), cancellation: nil,
            consumerError: &unused)
        #expect(next.response == PTPResponse(code: .ok, transactionID: 2))
    }

    @Test func aCancelledTaskCancelsTheCamerasDataPhase() throws {
        let (device, runner) = try camera()
        var consumerError: (any Error)?
        let error = #expect(throws: ViewfinderError.self) {
            try download(runner, slices: 2, cancelling: PTPCancellationFlag(), consumerError: &consumerError)
        }
        #expect(error?.code == .cancelled)
        #expect(device.steps.contains(.cancel(transactionID: 1)) && device.bytesRead < 3 << 20)
    }

    @Test func aConsumerThatGivesUpOnTheLastSliceNeedsNoCancel() throws {
        let (device, runner) = try camera(payload: 1000)
        var consumerError: (any Error)?
        let result = try download(runner, consumerError: &consumerError)
        #expect(consumerError is Enough && result.response == PTPResponse(code: .ok, transactionID: 1))
        #expect(device.steps == [.status] && device.bulkInIsEmpty)
    }

    @Test func aCameraWithoutTheCancelRequestHasItsPhaseDrained() throws {
        let (device, runner) = try camera(refusingCancel: true, payload: 3 << 20)
        var consumerError: (any Error)?
        let result = try download(runner, consumerError: &consumerError)
        #expect(consumerError is Enough && result.response.code == .ok)
        #expect(device.steps == [.status] && device.bytesRead == 12 + (3 << 20) + 12 && device.bulkInIsEmpty)
    }

    @Test func aCameraThatDoesNotStopIsResetAndTheSessionEnds() throws {
        let device = ScriptedUSBDevice()
        device.onCommand.withLock {
            $0 = { [unowned device] command in
                device.writeDataPhase(transactionID: command.transactionID, payload: 1 << 30)
            }
        }
        let runner = PTPTransactionRunner(
            transport: try device.openTransport(), configuration: PTPSession.Configuration())
        var consumerError: (any Error)?
        let error = #expect(throws: ViewfinderError.self) { try download(runner, consumerError: &consumerError) }
        #expect(error?.code == .timeout && error?.message.contains("it was reset") == true)
        #expect(device.steps == [.status, .cancel(transactionID: 1), .reset])
        #expect(device.bytesRead < PTPUSBTransport.maximumDrainBytes + (2 << 20))
    }
}
