import ViewfinderCore
import ViewfinderSystem

/// Reads a Nikon's events with CheckEvent (0x90C7), for bodies that hold their events for the computer to ask for,
/// as libgphoto2 does wherever the camera lists the operation.
///
/// The answer is a 16-bit count, then records of a 16-bit event code and one 32-bit parameter. The poller asks a few
/// times a second while the connection lasts, and hands each event to `deliver` in order.
final class NikonEventPoller: Sendable {
    /// How often the camera is asked.
    static let interval = Duration.milliseconds(200)

    private let task: Locked<Task<Void, Never>?> = Locked(nil)

    /// The events in a CheckEvent answer.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the count claims more records than the bytes hold.
    static func decode(_ data: [UInt8]) throws(ViewfinderError) -> [PTPEvent] {
        var reader = PTPDataReader(data, reading: "Nikon CheckEvent answer")
        guard !reader.isAtEnd else { return [] }
        let count = Int(try reader.read(UInt16.self))
        guard count * 6 <= reader.remainingCount else {
            throw reader.malformed("\(count) events of 6 bytes, but \(reader.remainingCount) bytes are left")
        }
        return try (0..<count).map { _ throws(ViewfinderError) in
            let code = PTPEventCode(rawValue: try reader.read(UInt16.self))
            return PTPEvent(code: code, transactionID: 0xFFFF_FFFF, parameters: [try reader.read(UInt32.self)])
        }
    }

    /// Starts asking the camera of `session` for its events, handing them to `deliver`.
    func start(on session: PTPSession, deliver: @escaping @Sendable (PTPEvent) async -> Void) {
        let poll = Task {
            while !Task.isCancelled {
                do {
                    let data = try await session.dataset(.nikonCheckEvent)
                    for event in try Self.decode(data) { await deliver(event) }
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
