import Testing
import ViewfinderCore
import ViewfinderPTP

@testable import ViewfinderPTPUSB

/// What the transport does when it opens on a camera a previous program left behind: stale data drained, halted
/// endpoints cleared, a busy camera cancelled and, if need be, reset, in that order.
@Suite struct PTPUSBTransportOpeningTests {
    @Test func anIdleCameraIsAskedItsStatusAndLeftAlone() throws {
        let device = ScriptedUSBDevice()
        let transport = try device.openTransport()
        #expect(device.steps == [.status])
        #expect(transport.cleanup.status == .ok && !transport.cleanup.foundLeftovers)
    }

    @Test func staleDataAndEventsAreDrainedAndTheNextTransactionWorks() throws {
        let device = ScriptedUSBDevice()
        // What a program killed after reading part of a data phase leaves: the rest of it, and its response.
        device.write(ScriptedUSBDevice.pattern(3000))
        device.write(ScriptedUSBDevice.response(transactionID: 41))
        device.queueInterrupt(ScriptedUSBDevice.event(0x4002, parameters: [9]))
        device.queueInterrupt(ScriptedUSBDevice.event(0x400D))
        let transport = try device.openTransport()
        #expect(transport.cleanup.drainedBytes == 3000 + 12)
        #expect(transport.cleanup.drainedEventTransfers == 2)
        #expect(!transport.cleanup.cancelled && !transport.cleanup.reset && device.steps == [.status])
        #expect(device.bulkInIsEmpty)

        device.write(ScriptedUSBDevice.response(transactionID: 0))
        try transport.send(PTPRequest(code: .openSession, transactionID: 0, parameters: [1]), hasDataOut: false)
        #expect(try transport.receivePhase(of: 0) == .response(PTPResponse(code: .ok, transactionID: 0)))
        #expect(device.commands.map(\.code) == [0x1002])
    }

    @Test func aBusyCameraIsCancelledBeforeItsRestIsDrained() throws {
        let device = ScriptedUSBDevice()
        // Mid-download: a gigabyte still to send, and busy until cancelled.
        device.writeDataPhase(transactionID: 41, payload: 1 << 30)
        device.answerStatus([.status(.deviceBusy)])
        device.onClassRequest.withLock {
            $0 = { [unowned device] request in
                guard request == 0x64 else { return }
                // It stops, with what was in its buffer still to go.
                device.stopSending()
                device.write(ScriptedUSBDevice.pattern(5000))
            }
        }
        let transport = try device.openTransport()
        #expect(device.steps == [.status, .cancel(transactionID: 0xFFFF_FFFF), .status])
        #expect(transport.cleanup.cancelled && !transport.cleanup.reset)
        #expect(transport.cleanup.status == .deviceBusy && transport.cleanup.drainedBytes == 5000)
        #expect(device.bytesRead == 5000)
    }

    @Test func aCameraThatKeepsSendingIsCancelledAfterADrainsWorth() throws {
        let device = ScriptedUSBDevice()
        // It says it is ready (as Android's MTP does mid-transfer), but a gigabyte is on its way.
        device.writeDataPhase(transactionID: 41, payload: 1 << 30)
        device.onClassRequest.withLock {
            $0 = { [unowned device] request in
                if request == 0x64 { device.stopSending() }
            }
        }
        let transport = try device.openTransport()
        #expect(device.steps == [.status, .cancel(transactionID: 0xFFFF_FFFF), .status])
        // A drain's worth at most (less if its time ran out first), not the gigabyte.
        #expect(transport.cleanup.drainedBytes > 0 && device.bytesRead <= PTPUSBTransport.maximumDrainBytes)
    }

    @Test func aCameraThatStaysBusyAfterTheCancelIsReset() throws {
        let device = ScriptedUSBDevice()
        device.answerStatus([], then: .status(.deviceBusy))
        device.onClassRequest.withLock {
            $0 = { [unowned device] request in
                if request == 0x66 { device.answerStatus([], then: .status(.ok)) }
            }
        }
        let transport = try device.openTransport()
        let steps = device.steps
        #expect(Array(steps.prefix(3)) == [.status, .cancel(transactionID: 0xFFFF_FFFF), .status])
        #expect(Array(steps.suffix(2)) == [.reset, .status])
        // It was asked again and again, but not forever.
        #expect(steps.count > 5 && steps.count <= PTPUSBTransport.maximumSettleRounds + 4)
        #expect(transport.cleanup.cancelled && transport.cleanup.reset)
    }

    @Test func theEndpointsTheCameraReportsHaltedAreCleared() throws {
        let device = ScriptedUSBDevice()
        // By address, and by number alone.
        device.answerStatus([.status(.ok, halted: [0x81, 0x02]), .status(.ok, halted: [0x03])])
        let first = try device.openTransport()
        #expect(device.steps == [.status, .clearHalt(0x81), .clearHalt(0x02)])
        #expect(first.cleanup.clearedEndpoints == [0x81, 0x02] && first.cleanup.foundLeftovers)
        let second = try device.openTransport()
        #expect(second.cleanup.clearedEndpoints == [0x83])
    }

    @Test func aCameraWithoutGetDeviceStatusIsStillDrained() throws {
        let device = ScriptedUSBDevice()
        device.answerStatus([], then: .refused)
        device.write(ScriptedUSBDevice.response(transactionID: 8))
        let transport = try device.openTransport()
        #expect(transport.cleanup.status == nil && transport.cleanup.drainedBytes == 12)
        #expect(!transport.cleanup.cancelled)
    }

    @Test func aStalledBulkInPipeIsClearedWhileDraining() throws {
        let device = ScriptedUSBDevice()
        device.stallBulkIn()
        device.write(ScriptedUSBDevice.response(transactionID: 8))
        let transport = try device.openTransport()
        #expect(transport.cleanup.clearedEndpoints == [0x81] && transport.cleanup.drainedBytes == 12)
        #expect(device.steps == [.status, .clearHalt(0x81)])
    }

    @Test func aCameraThatNeverStopsSendingIsRefusedAfterCancelAndReset() throws {
        let device = ScriptedUSBDevice()
        device.writeDataPhase(transactionID: 41, payload: 1 << 40)
        let error = #expect(throws: ViewfinderError.self) { try device.openTransport() }
        #expect(error?.code == .deviceBusy)
        #expect(error?.message.contains("turn it off and on again") == true)
        #expect(device.steps.contains(.cancel(transactionID: 0xFFFF_FFFF)) && device.steps.contains(.reset))
        // Three drains' worth at most, not the terabyte, and the device is let go.
        #expect(device.bytesRead <= 3 * PTPUSBTransport.maximumDrainBytes)
        #expect(device.isClosed)
    }
}
