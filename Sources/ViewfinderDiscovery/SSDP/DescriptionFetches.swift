import Dispatch
import ViewfinderCore
import ViewfinderSystem

/// Device descriptions being read for a searcher, each on a thread of its own, off the thread that receives
/// announcements: a camera slow to answer (or a host that never does) holds up neither the other cameras'
/// announcements nor the searches.
///
/// At most ``maximumOutstanding`` fetches run at once, and one per location; the searcher takes the finished ones
/// (``takeFinished()``) when ``wakeup`` says there are some.
final class DescriptionFetches: Sendable {
    /// The most fetches running at once.
    static let maximumOutstanding = 4

    /// A fetch that ended: the location, and its description or `nil` when it could not be read.
    typealias Finished = (location: String, description: UPnPDeviceDescription?)

    private struct State {
        var running: Set<String> = []
        var finished: [Finished] = []
    }

    /// Readable once a fetch has finished.
    let wakeup: Wakeup
    private let timeout: Duration
    private let state = Locked(State())
    private let threads = DispatchGroup()

    /// Fetches that each take at most `timeout`.
    init(timeout: Duration) throws(ViewfinderError) {
        self.timeout = timeout
        do {
            wakeup = try Wakeup()
        } catch {
            throw ViewfinderError(error, while: "preparing to read device descriptions")
        }
    }

    /// Starts reading the description at `location`, unless it is being read already or too many are; returns
    /// whether it is being read now, by this call or an earlier one.
    func start(_ location: String) -> Bool {
        let starts = state.withLock { state in
            guard !state.running.contains(location) else { return false }
            guard state.running.count < Self.maximumOutstanding else { return false }
            state.running.insert(location)
            return true
        }
        guard starts else { return state.withLock { $0.running.contains(location) } }
        threads.enter()
        do {
            try PlatformThread.detach(name: "ssdp-describe") { [self] in
                finish(location, try? DescriptionFetcher.fetch(location, timeout: timeout))
            }
        } catch {
            finish(location, nil)
        }
        return true
    }

    private func finish(_ location: String, _ description: UPnPDeviceDescription?) {
        state.withLock { state in
            state.running.remove(location)
            state.finished.append((location, description))
        }
        wakeup.signal()
        threads.leave()
    }

    /// The fetches that finished since the last call.
    func takeFinished() -> [Finished] {
        wakeup.drain()
        return state.withLock { state in
            defer { state.finished = [] }
            return state.finished
        }
    }

    /// Waits for the running fetches to end, at most as long as one may take and a second.
    func waitForRunning() {
        _ = threads.wait(timeout: DispatchTime(.now + timeout + .seconds(1)))
    }
}
