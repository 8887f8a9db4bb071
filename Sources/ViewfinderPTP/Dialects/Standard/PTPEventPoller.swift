import ViewfinderCore
import ViewfinderSystem

/// Asks a camera for its events a few times a second, for bodies that hold them for the computer to ask for: a
/// Nikon's CheckEvent (0x90C7) and a Fujifilm's list of changed properties (CurrentState, 0xD212), as libgphoto2
/// reads them.
///
/// Both answer a 16-bit count, then that many records of a 16-bit code and a 32-bit value (``records(in:of:)``); the
/// dialect turns the records into events. The poller asks while the connection lasts and hands each event to
/// `deliver` in order, the next question coming ``interval`` (or the interval ``pace(_:)`` set) after the last answer's
/// events were handled.
///
/// Each question runs as a timed job on the session's command thread, between the transactions of other callers,
/// and an empty answer schedules the next one there: a poll that finds nothing wakes that one thread and no task.
/// Only an answer with events starts a task, which hands them over and then schedules the next question.
package final class PTPEventPoller: Sendable {
    /// One record of an event list: a 16-bit code and a 32-bit value.
    package struct Record: Equatable, Sendable {
        /// The event's or the property's code.
        package var code: UInt16
        /// The event's parameter, or the property's value.
        package var value: UInt32
    }

    /// How often the camera is asked unless ``pace(_:)`` says otherwise: a change on the camera reaches `deliver` at
    /// most this long, plus the question's round trip, after the camera lists it.
    static let interval = Duration.milliseconds(200)

    /// Asks the camera, on the command thread, and returns its events.
    typealias Question = @Sendable (PTPSessionCore) throws -> [PTPEvent]
    /// Handles one event.
    typealias Delivery = @Sendable (PTPEvent) async -> Void

    private struct State {
        /// Whether the poller was stopped: no question is asked any more.
        var stopped = false
        /// The task handing over the events of the last answer, while it runs.
        var delivery: Task<Void, Never>?
        /// The pause between an answer and the next question.
        var interval = PTPEventPoller.interval
    }

    private let state = Locked(State())

    /// The records of an event list: a 16-bit count, then that many records of 6 bytes; an empty answer is an empty
    /// list.
    ///
    /// - Parameters:
    ///   - data: The answer's data.
    ///   - what: What the answer is, for the error's message.
    /// - Throws: `ViewfinderError/Code/malformedData` when the count claims more records than the bytes hold.
    package static func records(in data: [UInt8], of what: String) throws(ViewfinderError) -> [Record] {
        var reader = PTPDataReader(data, reading: what)
        guard !reader.isAtEnd else { return [] }
        let count = Int(try reader.read(UInt16.self))
        guard count * 6 <= reader.remainingCount else {
            throw reader.malformed("\(count) records of 6 bytes, but \(reader.remainingCount) bytes are left")
        }
        return try (0..<count).map { _ throws(ViewfinderError) in
            Record(code: try reader.read(UInt16.self), value: try reader.read(UInt32.self))
        }
    }

    /// Starts asking the camera of `session` for its events with `ask`, on the session's command thread, handing
    /// them to `deliver`.
    func start(on session: PTPSession, asking ask: @escaping Question, deliver: @escaping Delivery) {
        scheduleQuestion(on: session.core, ask, deliver)
    }

    /// Asks the camera every `interval` from the next question on, or every ``interval`` when `nil`.
    ///
    /// Less often while live view streams, for one, whose frames each question would delay: a change then reaches
    /// `deliver` at most `interval`, plus the question's round trip, after the camera lists it. A question already
    /// scheduled keeps its time.
    func pace(_ interval: Duration?) {
        state.withLock { $0.interval = interval ?? Self.interval }
    }

    /// Asks again one interval from now.
    private func scheduleQuestion(on core: PTPSessionCore, _ ask: @escaping Question, _ deliver: @escaping Delivery) {
        guard let interval = state.withLock({ $0.stopped ? nil : $0.interval }) else { return }
        core.commandThread.schedule(at: .now + interval) { [self] in
            question(on: core, ask, deliver)
        }
    }

    /// Asks the camera once; runs on the command thread.
    private func question(on core: PTPSessionCore, _ ask: @escaping Question, _ deliver: @escaping Delivery) {
        // A timer due after the thread stopped runs elsewhere: the session has ended then, and so has the polling.
        guard core.commandThread.isCurrent, !state.withLock({ $0.stopped }) else { return }
        let events: [PTPEvent]
        do {
            events = try ask(core)
        } catch let error as ViewfinderError where error.code == .notConnected {
            return
        } catch {
            // A refused or malformed answer: the next question asks again.
            events = []
        }
        guard !events.isEmpty else {
            scheduleQuestion(on: core, ask, deliver)
            return
        }
        state.withLock { state in
            guard !state.stopped else { return }
            state.delivery = Task { [self] in
                for event in events { await deliver(event) }
                scheduleQuestion(on: core, ask, deliver)
            }
        }
    }

    /// Stops asking, and waits for the events of the last answer to be handled; a question under way on the command
    /// thread ends before any transaction asked for later.
    func stop() async {
        let delivery = state.withLock { state in
            state.stopped = true
            defer { state.delivery = nil }
            return state.delivery
        }
        delivery?.cancel()
        await delivery?.value
    }

    /// Stops asking, without waiting.
    func cancel() {
        state.withLock { state in
            state.stopped = true
            return state.delivery
        }?.cancel()
    }
}
