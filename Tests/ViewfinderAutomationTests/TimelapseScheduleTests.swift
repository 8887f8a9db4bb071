import Testing

@testable import ViewfinderAutomation

/// The timelapse schedule alone: every frame at its own time from the start, a late one skipped.
@Suite struct TimelapseScheduleTests {
    let schedule = TimelapseSchedule(frames: 4, interval: .seconds(10))

    @Test func eachFrameIsDueItsIntervalsAfterTheStart() {
        #expect(schedule.step(for: 0, at: .zero) == .take)
        #expect(schedule.step(for: 1, at: .seconds(3)) == .wait(.seconds(7)))
        // A frame taken late does not move the next: frame 2 is due at 20 s whenever frame 1 was taken.
        #expect(schedule.step(for: 2, at: .seconds(12)) == .wait(.seconds(8)))
    }

    @Test func aFrameUpToAQuarterIntervalLateIsTakenAndALaterOneSkipped() {
        #expect(schedule.step(for: 1, at: .milliseconds(12_500)) == .take)
        #expect(schedule.step(for: 1, at: .milliseconds(12_501)) == .skip(lateness: .milliseconds(2_501)))
        #expect(schedule.step(for: 3, at: .seconds(31)) == .take)
    }

    @Test func theScheduleEndsAfterItsFrames() {
        #expect(schedule.step(for: 3, at: .seconds(30)) == .take)
        #expect(schedule.step(for: 4, at: .seconds(30)) == .done)
        #expect(schedule.step(for: 4, at: .seconds(3000)) == .done)
    }
}
