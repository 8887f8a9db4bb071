import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Waits for Ctrl-C (SIGINT) or SIGTERM, so long-running commands can stop cleanly.
enum Interrupt {
    /// Suspends until the process receives SIGINT or SIGTERM.
    static func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "viewfinder.interrupt")
            let sources = [SIGINT, SIGTERM].map { signalNumber in
                signal(signalNumber, SIG_IGN)
                return DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            }
            let resumed = ResumeOnce(continuation)
            for source in sources {
                source.setEventHandler {
                    for source in sources { source.cancel() }
                    resumed.resume()
                }
                source.resume()
            }
        }
    }
}

/// Resumes a continuation the first time it is asked and ignores later asks.
private final class ResumeOnce: @unchecked Sendable {
    // Unchecked: only touched on the interrupt queue, which is serial.
    private var continuation: CheckedContinuation<Void, Never>?

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func resume() {
        continuation?.resume()
        continuation = nil
    }
}
