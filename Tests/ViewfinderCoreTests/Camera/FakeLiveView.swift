import ViewfinderCore
import ViewfinderSystem

/// A live view backend held in memory: it counts what the publisher asks of it, makes small numbered frames, and
/// fails when told to.
final class FakeLiveView: LiveViewBackend {
    private struct State {
        var startFailures: [ViewfinderError] = []
        var fetchFailure: ViewfinderError?
        var starts = 0
        var ends = 0
        var fetchTimes: [ContinuousClock.Instant] = []
        var settings: [LiveViewSettings] = []
    }

    private let state = Locked(State())

    /// Errors the next starts throw, one each, before starts succeed.
    func failNextStarts(with errors: [ViewfinderError]) {
        state.withLock { $0.startFailures = errors }
    }

    /// An error every fetch throws from now on.
    func failFetches(with error: ViewfinderError) {
        state.withLock { $0.fetchFailure = error }
    }

    /// Successful starts so far.
    var starts: Int { state.withLock { $0.starts } }
    /// Calls to end live view so far.
    var ends: Int { state.withLock { $0.ends } }
    /// Frames fetched so far.
    var fetches: Int { state.withLock { $0.fetchTimes.count } }
    /// When each frame was fetched.
    var fetchTimes: [ContinuousClock.Instant] { state.withLock { $0.fetchTimes } }
    /// The settings of each fetch.
    var settings: [LiveViewSettings] { state.withLock { $0.settings } }

    func startLiveView(settings: LiveViewSettings) async throws {
        try state.withLock { state in
            if !state.startFailures.isEmpty {
                throw state.startFailures.removeFirst()
            }
            state.starts += 1
        }
    }

    func liveViewFrame(settings: LiveViewSettings) async throws -> LiveViewFrame {
        let number = try state.withLock { state in
            if let failure = state.fetchFailure { throw failure }
            state.fetchTimes.append(.now)
            state.settings.append(settings)
            return state.fetchTimes.count
        }
        let image =
            settings.skipsImageDecoding
            ? nil
            : try PixelBuffer(width: 4, height: 2, format: .nv12FullRange) { planes in
                for index in 0..<planes.count {
                    planes[index].bytes.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: number))
                }
            }
        return LiveViewFrame(
            jpegData: [0xFF, 0xD8, UInt8(truncatingIfNeeded: number), 0xFF, 0xD9],
            pixelSize: Dimensions(width: 4, height: 2), timestamp: .now(), sequenceNumber: UInt64(number),
            pixelBuffer: image)
    }

    func endLiveView() async {
        state.withLock { $0.ends += 1 }
    }
}
