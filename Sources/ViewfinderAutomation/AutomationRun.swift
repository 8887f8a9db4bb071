import ViewfinderCore
import ViewfinderSystem

/// A running automation: its events as an async sequence, and a way to stop it.
///
/// The automation runs on a task of its own from the moment it is started, whether or not anyone reads its events.
/// ``cancel()`` stops it at its next wait, camera operation or picture; it then puts back what it changed (a held
/// shutter is let go, a bracketed setting restored) and reports ``AutomationEvent/finished(_:)`` with
/// ``AutomationSummary/wasCancelled`` set, after which ``events`` ends. Cancelling the task that reads ``events``
/// cancels the automation too.
///
/// ```swift
/// let run = Timelapse(frames: 100, interval: .seconds(10)).start(on: camera)
/// for try await event in run.events {
///     print(event)
/// }
/// ```
public final class AutomationRun: Sendable {
    /// What the automation reports, ending after ``AutomationEvent/finished(_:)``, or throwing what stopped it.
    ///
    /// A few hundred events are kept for a reader that falls behind; older ones are dropped before newer.
    public let events: AsyncThrowingStream<AutomationEvent, any Error>
    private let task: Task<Void, Never>

    /// Starts `body` on a task of its own, with a function that reports an event.
    init(_ body: @escaping @Sendable (_ report: @escaping @Sendable (AutomationEvent) -> Void) async throws -> Void) {
        let (events, continuation) = AsyncThrowingStream.makeStream(
            of: AutomationEvent.self, bufferingPolicy: .bufferingNewest(512))
        self.events = events
        let summary = Locked(AutomationSummary())
        task = Task {
            let report: @Sendable (AutomationEvent) -> Void = { event in
                summary.withLock { $0 = $0.counting(event) }
                continuation.yield(event)
            }
            do {
                try await body(report)
                continuation.yield(.finished(summary.withLock { $0 }))
                continuation.finish()
            } catch  where Task.isCancelled {
                var ended = summary.withLock { $0 }
                ended.wasCancelled = true
                continuation.yield(.finished(ended))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { [task] termination in
            if case .cancelled = termination { task.cancel() }
        }
    }

    /// Stops the automation; it reports its end once it has put back what it changed.
    public func cancel() {
        task.cancel()
    }
}

/// The work of an automation, which `start(on:)` runs on a task of its own.
protocol AutomationWork: Sendable {
    /// Does the automation's work on `camera`, reporting its events with `report`.
    func run(on camera: any Camera, report: @escaping @Sendable (AutomationEvent) -> Void) async throws
}

extension AutomationWork {
    /// Starts the work on `camera`.
    func started(on camera: any Camera) -> AutomationRun {
        AutomationRun { [self] report in try await run(on: camera, report: report) }
    }
}

/// Runs `operation` on a task that cancelling the caller does not cancel, for putting things back as a cancelled
/// automation ends: letting go of the shutter, restoring a setting.
func uncancelled<Result: Sendable>(_ operation: @escaping @Sendable () async throws -> Result) async throws -> Result {
    try await Task { try await operation() }.value
}
