import ViewfinderCore
import ViewfinderSystem

/// Asks a camera for its events a few times a second, for bodies that hold them for the computer to ask for: a
/// Nikon's CheckEvent (0x90C7) and a Fujifilm's list of changed properties (CurrentState, 0xD212), as libgphoto2
/// reads them.
///
/// Both answer a 16-bit count, then that many records of a 16-bit code and a 32-bit value (``records(in:of:)``); the
/// dialect turns the records into events. The poller asks while the connection lasts and hands each event to
/// `deliver` in order.
package final class PTPEventPoller: Sendable {
    /// One record of an event list: a 16-bit code and a 32-bit value.
    package struct Record: Equatable, Sendable {
        /// The event's or the property's code.
        package var code: UInt16
        /// The event's parameter, or the property's value.
        package var value: UInt32
    }

    /// How often the camera is asked.
    static let interval = Duration.milliseconds(200)

    private let task: Locked<Task<Void, Never>?> = Locked(nil)

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

    /// Starts asking the camera of `session` for its events with `ask`, handing them to `deliver`.
    func start(
        on session: PTPSession, asking ask: @escaping @Sendable (PTPSession) async throws -> [PTPEvent],
        deliver: @escaping @Sendable (PTPEvent) async -> Void
    ) {
        let poll = Task {
            while !Task.isCancelled {
                do {
                    for event in try await ask(session) { await deliver(event) }
                } catch let error as ViewfinderError where error.code == .notConnected {
                    return
                } catch {
                    // A refused or malformed answer: the next poll asks again.
                }
                try? await Task.sleep(for: Self.interval)
            }
        }
        task.withLock { $0 = poll }
    }

    /// Stops asking, and waits for the poll under way.
    func stop() async {
        let poll = task.withLock { task in
            defer { task = nil }
            return task
        }
        poll?.cancel()
        await poll?.value
    }

    /// Stops asking, without waiting.
    func cancel() {
        task.withLock { $0 }?.cancel()
    }
}
