import Dispatch
import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP
@testable import ViewfinderSimulator

/// Regressions of what fuzzing found (Fuzz/README.md keeps the record); each input also stays in the seed corpus.
@Suite struct FuzzRegressionTests {
    /// A range from the smallest to the largest 64-bit integer, which overflowed when it checked a value.
    ///
    /// In steps of 2 from the smallest, the largest (at an odd distance) is out and the one below it is in.
    @Test func rangesWiderThanASignedIntegerCheckValuesWithoutOverflowing() throws {
        let wide = PTPDevicePropertyDescription.Form.range(
            minimum: .int64(.min), maximum: .int64(.max), step: .int64(2))
        #expect(wide.allows(.int64(.min)))
        #expect(wide.allows(.int64(.max - 1)))
        #expect(!wide.allows(.int64(.max)))
        let everyValue = PTPDevicePropertyDescription.Form.range(
            minimum: .int64(.min), maximum: .int64(.max), step: .int64(1))
        #expect(everyValue.allows(.int64(.max)))
        // The dataset the fuzzer built: a description whose current value is the largest 64-bit integer.
        var writer = PTPDataWriter()
        writer.append(UInt16(0xD001))
        writer.append(PTPDataType.int64.rawValue)
        writer.append(UInt8(1))
        writer.append(Int64(0))
        writer.append(Int64.max)
        writer.append(UInt8(1))
        for bound in [Int64.min, Int64.max, 2] { writer.append(bound) }
        let description = try PTPDevicePropertyDescription(decoding: writer.bytes)
        #expect(!description.form.allows(description.currentValue))
    }

    /// Every session left its event pump, event connection and camera alive: the battery's repeating job, still
    /// pending when the session ended, held the pump that held it.
    @Test func anEventPumpWithPendingJobsIsFreedOnceStopped() async throws {
        let threads = DispatchGroup()
        weak var freed: SimulatorEventPump?
        do {
            let pump = try SimulatorEventPump(
                name: "pump-test", sockets: SimulatorSockets(), group: threads, silence: Locked(false), log: nil)
            pump.repeatEvery(.seconds(3600)) { [] }
            pump.schedule(after: .seconds(3600)) { [] }
            freed = pump
            pump.stop()
        }
        #expect(await offThePool { threads.wait(timeout: .now() + 30) } == .success)
        // The thread lets go of the pump just after it leaves the group.
        try await waitUntil("the pump to be freed") { freed == nil }
    }
}
