import Dispatch
import Testing
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderSimulator

/// The parts of the simulated USB camera that need no gadget: what its function tells FunctionFS, and how its events
/// leave the event pump.
@Suite struct SimulatorUSBTests {
    /// A little-endian 32-bit number at `offset`.
    static func word(_ bytes: [UInt8], _ offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    @Test func theDescriptorsAreAStillImageInterfaceWithThreePipesAtTwoSpeeds() {
        let blob = FunctionFSDescriptors.descriptors
        // The v2 header: magic 3, the whole length, full- and high-speed descriptors, four of each.
        #expect(Self.word(blob, 0) == 3 && Self.word(blob, 4) == blob.count && Self.word(blob, 8) == 3)
        #expect(Self.word(blob, 12) == 4 && Self.word(blob, 16) == 4)
        var offset = 20
        var speeds: [[(address: UInt8, attributes: UInt8, size: Int)]] = []
        for _ in 0..<2 {
            #expect(Array(blob[offset..<offset + 9]) == [9, 4, 0, 0, 3, 6, 1, 1, 1])
            offset += 9
            var endpoints: [(UInt8, UInt8, Int)] = []
            for _ in 0..<3 {
                #expect(blob[offset] == 7 && blob[offset + 1] == 5)
                endpoints.append(
                    (blob[offset + 2], blob[offset + 3], Int(blob[offset + 4]) | Int(blob[offset + 5]) << 8))
                offset += 7
            }
            speeds.append(endpoints)
        }
        #expect(offset == blob.count)
        #expect(speeds[0].map(\.size) == [64, 64, 64] && speeds[1].map(\.size) == [512, 512, 64])
        #expect(speeds[1].map(\.address) == [0x81, 0x02, 0x83] && speeds[1].map(\.attributes) == [2, 2, 3])
        let strings = FunctionFSDescriptors.strings
        #expect(Self.word(strings, 0) == 2 && Self.word(strings, 4) == strings.count)
        #expect(Array(strings[16..<18]) == [0x09, 0x04] && Array(strings[18...]) == Array("PTP".utf8) + [0])
    }

    @Test func eventsAndScheduledJobsReachTheOutlet() async throws {
        let group = DispatchGroup()
        let pump = try SimulatorEventPump(
            name: "test-events", sockets: SimulatorSockets(), group: group, silence: Locked(false), log: nil)
        let delivered = Locked<[PTPEventCode]>([])
        pump.deliver(to: { events in delivered.withLock { $0 += events.map(\.code) } })
        pump.emit([PTPEvent(code: .objectAdded, parameters: [7])])
        pump.schedule(after: .milliseconds(20)) { [PTPEvent(code: .captureComplete)] }
        try await waitUntil("both events") { delivered.withLock { $0.count } >= 2 }
        #expect(delivered.withLock { $0 } == [.objectAdded, .captureComplete])
        pump.stop()
        #expect(await offThePool { group.wait(timeout: .now() + 30) } == .success)
    }
}
