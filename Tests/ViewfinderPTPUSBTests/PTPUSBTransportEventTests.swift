import Testing
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

@testable import ViewfinderPTPUSB

/// The interrupt pipe read through the transport: split events put together, junk dropped and counted without
/// ending the session, stalls cleared.
@Suite struct PTPUSBTransportEventTests {
    /// Records what the transport passes on.
    final class Sink: PTPEventSink {
        let events = Locked<[PTPEvent]>([])
        let failure = Locked<ViewfinderError?>(nil)

        func receive(_ event: PTPEvent) {
            events.withLock { $0.append(event) }
        }

        func fail(_ error: ViewfinderError) {
            failure.withLock { $0 = error }
        }
    }

    func start() throws -> (ScriptedUSBDevice, PTPUSBTransport, Sink) {
        // 8-byte packets, as some full-speed cameras have.
        let device = ScriptedUSBDevice(interruptPacketSize: 8)
        let transport = try device.openTransport()
        let sink = Sink()
        try transport.startEvents(sink)
        return (device, transport, sink)
    }

    @Test func anEventInPacketsIsPassedOnWhole() throws {
        let (device, transport, sink) = try start()
        defer { withExtendedLifetime(transport) {} }
        let event = ScriptedUSBDevice.event(0x4002, transactionID: 3, parameters: [0x10, 0x20, 0x30])
        for offset in stride(from: 0, to: event.count, by: 8) {
            #expect(sink.events.withLock { $0 }.isEmpty)
            #expect(device.sendEvent(Array(event[offset..<offset + 8])))
        }
        #expect(
            sink.events.withLock { $0 }
                == [PTPEvent(code: PTPEventCode(0x4002), transactionID: 3, parameters: [0x10, 0x20, 0x30])])
    }

    @Test func junkIsDroppedAndCountedWithoutEndingTheSession() throws {
        let (device, transport, sink) = try start()
        #expect(device.sendEvent([0xFF, 0xFF, 0xFF, 0xFF, 3, 0, 1, 0x20]))
        #expect(device.sendEvent([1, 2, 3]))
        #expect(transport.droppedEventTransferCount == 2)
        #expect(sink.failure.withLock { $0 } == nil)
        let event = ScriptedUSBDevice.event(0x400D)
        device.sendEvent(Array(event[0..<8]))
        device.sendEvent(Array(event[8...]))
        #expect(sink.events.withLock { $0 }.map(\.code) == [PTPEventCode(0x400D)])
    }

    @Test func aStallIsClearedAndReadingGoesOnUntilTheCameraKeepsStalling() throws {
        let (device, transport, sink) = try start()
        defer { withExtendedLifetime(transport) {} }
        #expect(device.stallEvents())
        #expect(device.steps.last == .clearHalt(0x83))
        // An event between stalls starts the count again.
        device.sendEvent(ScriptedUSBDevice.event(0x400D))
        for _ in 0..<PTPUSBTransport.maximumEventStalls {
            #expect(device.stallEvents())
        }
        #expect(sink.failure.withLock { $0 } == nil)
        #expect(!device.stallEvents())
        let failure = sink.failure.withLock { $0 }
        #expect(failure?.code == .io && failure?.message.contains("stalled its interrupt pipe 4 times") == true)
    }
}
