import Testing
import ViewfinderPTP

@testable import ViewfinderPTPUSB

/// Events put together from the interrupt pipe's transfers: split containers, vendor events longer than 24 bytes,
/// junk, and containers that never come whole.
@Suite struct PTPUSBEventAssemblerTests {
    let start = ContinuousClock.now

    /// Feeds `transfers` one after another, 10 ms apart, and returns everything they gave.
    func assemble(_ transfers: [[UInt8]], into assembler: inout PTPUSBEventAssembler) -> PTPUSBEventAssembler.Output {
        var total = PTPUSBEventAssembler.Output()
        for (index, transfer) in transfers.enumerated() {
            let output = transfer.withUnsafeBytes { assembler.take($0, at: start + .milliseconds(10 * index)) }
            total.events += output.events
            total.junk += output.junk
        }
        return total
    }

    func assemble(_ transfers: [[UInt8]]) -> PTPUSBEventAssembler.Output {
        var assembler = PTPUSBEventAssembler()
        return assemble(transfers, into: &assembler)
    }

    /// `bytes` cut into pieces of `size`.
    func pieces(_ bytes: [UInt8], of size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    let objectAdded = ScriptedUSBDevice.event(0x4002, transactionID: 7, parameters: [0x1234, 2, 3])

    @Test func anEventInOneTransferIsTakenWhole() {
        let output = assemble([objectAdded])
        #expect(output.events == [PTPEvent(code: PTPEventCode(0x4002), transactionID: 7, parameters: [0x1234, 2, 3])])
        #expect(output.junk == 0)
    }

    @Test func anEventSplitAcrossTransfersIsPutTogether() {
        // A camera with 8-byte interrupt packets sends the 24 bytes in three.
        var assembler = PTPUSBEventAssembler()
        let first = assemble([Array(objectAdded[0..<8]), Array(objectAdded[8..<16])], into: &assembler)
        #expect(first.events.isEmpty && first.junk == 0 && assembler.pendingCount == 16)
        let last = assemble([Array(objectAdded[16...])], into: &assembler)
        #expect(last.events.map(\.parameters) == [[0x1234, 2, 3]])
        #expect(assembler.pendingCount == 0)
    }

    @Test func aVendorEventLongerThan24BytesKeepsItsFirstThreeParameters() {
        let long = ScriptedUSBDevice.event(0xC101, transactionID: 1, parameters: Array(1...10))
        let output = assemble(pieces(long, of: 16))
        #expect(output.events == [PTPEvent(code: PTPEventCode(0xC101), transactionID: 1, parameters: [1, 2, 3])])
        #expect(output.junk == 0)
    }

    @Test func transfersThatCannotStartAContainerAreJunk() {
        let response = ScriptedUSBDevice.response(.ok, transactionID: 1)
        let output = assemble([
            [1, 2, 3, 4],  // shorter than a length and a type
            response,  // not an event
            ScriptedUSBDevice.container(4, code: 0x4002, transactionID: 1, length: 8),  // shorter than a header
            ScriptedUSBDevice.container(4, code: 0x4002, transactionID: 1, length: 5000),  // longer than allowed
            objectAdded,
        ])
        #expect(output.junk == 4)
        #expect(output.events.map(\.code) == [PTPEventCode(0x4002)])
    }

    @Test func aContainerWhoseRestComesTooLateIsDroppedAndTheLateTransferReadAfresh() {
        var assembler = PTPUSBEventAssembler()
        let first = objectAdded.withUnsafeBytes {
            assembler.take(UnsafeRawBufferPointer(rebasing: $0[0..<16]), at: start)
        }
        #expect(first.events.isEmpty)
        let late = start + PTPUSBEventAssembler.continuationTimeout + .milliseconds(1)
        // The rest, too late: the part is dropped, and the rest cannot start a container.
        let rest = objectAdded.withUnsafeBytes { assembler.take(UnsafeRawBufferPointer(rebasing: $0[16...]), at: late) }
        #expect(rest.events.isEmpty && rest.junk == 2 && assembler.pendingCount == 0)
        let next = objectAdded.withUnsafeBytes { assembler.take($0, at: late) }
        #expect(next.events.count == 1 && next.junk == 0)
    }

    @Test func aZeroLengthPacketEndsAPartialContainerAndIsNothingOnItsOwn() {
        var assembler = PTPUSBEventAssembler()
        let alone = assemble([[]], into: &assembler)
        #expect(alone.events.isEmpty && alone.junk == 0)
        let cut = assemble([Array(objectAdded[0..<16]), []], into: &assembler)
        #expect(cut.events.isEmpty && cut.junk == 1 && assembler.pendingCount == 0)
    }

    @Test func twoContainersInOneTransferAreTwoEvents() {
        let second = ScriptedUSBDevice.event(0x400D, parameters: [5])
        let output = assemble([objectAdded + second])
        #expect(output.events.map(\.code) == [PTPEventCode(0x4002), PTPEventCode(0x400D)])
        // The first part of a third waits for its rest.
        var assembler = PTPUSBEventAssembler()
        let split = assemble([second + objectAdded[0..<10], Array(objectAdded[10...])], into: &assembler)
        #expect(split.events.map(\.code) == [PTPEventCode(0x400D), PTPEventCode(0x4002)] && split.junk == 0)
    }

    @Test func theLongestContainerIsHeldWholeAndNothingLonger() {
        var assembler = PTPUSBEventAssembler()
        let longest = ScriptedUSBDevice.container(
            4, code: 0xC102, transactionID: 1,
            payload: [UInt8](repeating: 1, count: PTPUSBEventAssembler.maximumLength - 12))
        let parts = pieces(longest, of: 64)
        let before = assemble(Array(parts.dropLast()), into: &assembler)
        #expect(before.events.isEmpty && assembler.pendingCount == PTPUSBEventAssembler.maximumLength - 64)
        let output = assemble([parts.last!], into: &assembler)
        #expect(output.events.count == 1 && assembler.pendingCount == 0)
    }
}
