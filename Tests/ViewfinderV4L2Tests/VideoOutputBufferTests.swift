import Testing

@testable import ViewfinderV4L2

/// Which driver buffer a video output writes next.
@Suite struct VideoOutputBufferTests {
    /// A writer's state with `count` buffers, none written yet.
    static func state(buffers count: Int) -> VideoOutput.WriterState {
        var state = VideoOutput.WriterState()
        state.generations = Array(repeating: -1, count: count)
        state.queued = Array(repeating: false, count: count)
        state.queuedAt = Array(repeating: -1, count: count)
        return state
    }

    /// Queues buffer `index` with frame `generation` as the writer does.
    static func write(_ index: Int, generation: Int, in state: inout VideoOutput.WriterState) {
        state.generations[index] = generation
        state.queued[index] = true
        state.queuedAt[index] = state.statistics.framesWritten
        state.statistics.framesWritten += 1
    }

    @Test func newFramesGoRoundTheBuffersEvenWhenTheDriverGivesEachBackAtOnce() throws {
        // A loopback device gives a written buffer straight back; the writer still moves on to another, so that a
        // reader reading the last one in place is not written over.
        var state = Self.state(buffers: 4)
        var written: [Int] = []
        for generation in 1...8 {
            let index = try #require(state.nextBuffer(newest: generation))
            Self.write(index, generation: generation, in: &state)
            state.queued[index] = false
            written.append(index)
        }
        #expect(written == [0, 1, 2, 3, 0, 1, 2, 3])
    }

    @Test func aRepeatedFrameReusesTheFreeBufferThatHoldsIt() {
        var state = Self.state(buffers: 3)
        Self.write(0, generation: 1, in: &state)
        Self.write(1, generation: 2, in: &state)
        state.queued[0] = false
        state.queued[1] = false
        // Frame 2 is in buffer 1: written again from there, with no copy, though buffer 2 was never used.
        #expect(state.nextBuffer(newest: 2) == 1)
        #expect(state.nextBuffer(newest: 3) == 2)
    }

    @Test func noBufferWhileTheDriverHoldsThemAll() {
        var state = Self.state(buffers: 2)
        Self.write(0, generation: 1, in: &state)
        Self.write(1, generation: 2, in: &state)
        #expect(state.nextBuffer(newest: 2) == nil)
        state.queued[0] = false
        #expect(state.nextBuffer(newest: 2) == 0)
    }
}
