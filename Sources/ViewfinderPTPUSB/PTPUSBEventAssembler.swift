import ViewfinderPTP

/// Puts the camera's events together from the transfers of its interrupt pipe.
///
/// An event container usually comes in one transfer. One longer than the pipe's packets comes in several, as the
/// transport reads the pipe a packet at a time (a camera with 8-byte packets sends a 24-byte event in three), and
/// some cameras send vendor events longer than PTP's 24 bytes: the assembler reads on until the container is whole,
/// up to ``maximumLength`` bytes, and keeps its first three parameters.
///
/// A transfer that cannot start a container is junk, dropped and counted: shorter than the length and type, a type
/// other than event, or a length shorter than a header or longer than ``maximumLength``. So is a container whose
/// rest does not come within ``continuationTimeout``, or that a zero-length packet ends early. Bytes after a
/// container's end in the same transfer are read as the start of the next. The assembler never holds more than
/// ``maximumLength`` bytes.
package struct PTPUSBEventAssembler: Sendable {
    /// The longest event container taken.
    package static let maximumLength = 1024
    /// How long the rest of a container may take after its first part.
    package static let continuationTimeout = Duration.seconds(1)

    /// What one transfer gave.
    package struct Output: Hashable, Sendable {
        /// The events made whole by the transfer, in order.
        package var events: [PTPEvent] = []
        /// The pieces dropped as junk: transfers, or parts of them, and containers that never came whole.
        package var junk = 0
    }

    /// The part of a container received so far.
    private var pending: [UInt8] = []
    /// The whole container's length, while a part is pending.
    private var expected = 0
    /// When the pending part's first transfer came.
    private var started: ContinuousClock.Instant?

    /// Creates an assembler that holds nothing.
    package init() {}

    /// The bytes of a container held until its rest comes; at most ``maximumLength``.
    package var pendingCount: Int { pending.count }

    /// Takes one transfer from the interrupt pipe, which came at `now`.
    package mutating func take(_ transfer: UnsafeRawBufferPointer, at now: ContinuousClock.Instant) -> Output {
        var output = Output()
        var offset = 0
        if let started {
            if transfer.isEmpty || started.duration(to: now) > Self.continuationTimeout {
                // A zero-length packet ends the camera's write: the container will not come whole.
                drop(into: &output)
                if transfer.isEmpty { return output }
            } else {
                offset = min(expected - pending.count, transfer.count)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: transfer[0..<offset]))
                guard pending.count == expected else { return output }
                pending.withUnsafeBytes { output.events.append(Self.event(in: $0)) }
                pending.removeAll(keepingCapacity: true)
                self.started = nil
            }
        }
        while offset < transfer.count {
            let rest = UnsafeRawBufferPointer(rebasing: transfer[offset...])
            guard let length = Self.containerLength(startingWith: rest) else {
                output.junk += 1
                break
            }
            guard length <= rest.count else {
                pending.append(contentsOf: rest)
                expected = length
                started = now
                break
            }
            output.events.append(Self.event(in: UnsafeRawBufferPointer(rebasing: rest[0..<length])))
            offset += length
        }
        return output
    }

    /// Drops the pending part as junk.
    private mutating func drop(into output: inout Output) {
        pending.removeAll(keepingCapacity: true)
        started = nil
        output.junk += 1
    }

    /// The length of the event container `bytes` start, or `nil` when they cannot start one.
    private static func containerLength(startingWith bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let length = Int(bytes.loadUnaligned(as: UInt32.self).littleEndian)
        let type = bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian
        guard type == PTPUSBContainer.Kind.event.rawValue,
            (PTPUSBContainer.headerLength...maximumLength).contains(length)
        else { return nil }
        return length
    }

    /// The event in a whole container: its code, transaction and first three parameters.
    private static func event(in container: UnsafeRawBufferPointer) -> PTPEvent {
        let count = min(3, (container.count - PTPUSBContainer.headerLength) / 4)
        return PTPEvent(
            code: PTPEventCode(container.loadUnaligned(fromByteOffset: 6, as: UInt16.self).littleEndian),
            transactionID: container.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian,
            parameters: (0..<count).map {
                container.loadUnaligned(fromByteOffset: PTPUSBContainer.headerLength + 4 * $0, as: UInt32.self)
                    .littleEndian
            })
    }
}
