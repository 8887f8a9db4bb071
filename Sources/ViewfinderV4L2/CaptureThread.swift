import CV4L2
import Synchronization
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A dedicated POSIX thread for a blocking loop (a capture loop or a device watcher), and a pipe that wakes it.
///
/// Blocking loops get their own thread rather than a Dispatch worker, so a device that stalls never starves the
/// shared pool. The loop waits in `poll(2)` on its own descriptors plus the wake descriptor it is given; ``wake()``
/// makes that descriptor readable so the loop can notice a stop request and return.
final class CaptureThread: Sendable {
    private let wakeReadDescriptor: CInt
    private let wakeWriteDescriptor: CInt
    private let thread: PlatformThread
    private let stopped = Atomic(false)

    /// Starts a thread named `name` running `body`, which receives the wake descriptor to include in its polls.
    init(name: String, body: @escaping @Sendable (_ wakeDescriptor: CInt) -> Void) throws(V4L2Error) {
        var descriptors: [CInt] = [-1, -1]
        let pipeResult = cv4l2_pipe(&descriptors)
        guard pipeResult == 0 else {
            throw V4L2Error(operation: "pipe2", path: name, code: .init(rawValue: -pipeResult))
        }
        let wakeDescriptor = descriptors[0]
        do {
            thread = try PlatformThread(name: name) { body(wakeDescriptor) }
        } catch {
            Glibc.close(descriptors[0])
            Glibc.close(descriptors[1])
            throw V4L2Error(operation: "pthread_create", path: name, code: .init(rawValue: error.errno))
        }
        wakeReadDescriptor = descriptors[0]
        wakeWriteDescriptor = descriptors[1]
    }

    deinit {
        Glibc.close(wakeReadDescriptor)
        Glibc.close(wakeWriteDescriptor)
    }

    /// Whether the caller is running on this thread.
    var isCurrent: Bool { thread.isCurrent }

    /// Makes the wake descriptor readable; the loop sees it at its next `poll(2)`.
    func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWriteDescriptor, &byte, 1)
    }

    /// Wakes the loop and waits for the thread to return; from the thread itself it only wakes the loop.
    ///
    /// Only the first call does anything: a thread is joined or detached once.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        if isCurrent {
            thread.detach()
        } else {
            thread.join()
        }
    }
}
