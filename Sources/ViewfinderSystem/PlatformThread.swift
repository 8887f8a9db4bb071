import CViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A thread of the operating system that runs one closure, for work that blocks: socket and device I/O, and
/// delivery loops that must wake faster than a task hop allows.
///
/// ```swift
/// let thread = try PlatformThread(name: "capture") { runLoop() }
/// // ... make runLoop return ...
/// thread.join()
/// ```
package final class PlatformThread: Sendable {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// The error a thread could not be started with, such as `EAGAIN` when the process has too many.
    package struct StartError: Error, CustomStringConvertible {
        /// The error number `pthread_create` returned.
        package let errno: Int32

        package var description: String {
            "cannot start a thread: \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }

    private let handle: pthread_t

    /// Starts a thread named `name` (at most 15 bytes of it are kept) running `body`.
    ///
    /// - Throws: ``StartError`` when the system refuses a new thread.
    package init(name: String, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(
            &handle, nil,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                viewfinder_set_thread_name(body.name)
                body.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw StartError(errno: result)
        }
        self.handle = handle
    }

    /// Starts a thread that nobody joins; it ends when `body` returns.
    ///
    /// - Throws: ``StartError`` when the system refuses a new thread.
    package static func detach(name: String, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        try PlatformThread(name: name, body).detach()
    }

    /// Whether the caller is running on this thread.
    package var isCurrent: Bool { pthread_equal(pthread_self(), handle) != 0 }

    /// Lets the thread end by itself when its closure returns; call it instead of ``join()``, once.
    package func detach() {
        pthread_detach(handle)
    }

    /// Waits for the thread's closure to return; call it once, and never from the thread itself.
    package func join() {
        precondition(!isCurrent, "a thread cannot join itself")
        pthread_join(handle, nil)
    }
}
