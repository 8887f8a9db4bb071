import ViewfinderCore
import ViewfinderSystem

/// Collects a dataset from the slices of a streaming data-in phase, refusing one longer than a limit before it
/// grows past it.
///
/// A dataset decodes into a few times its size in memory (a `PTPValue` array element takes up to 24 bytes for one
/// byte on the wire), so the limit bounds what a camera can make the session hold.
final class PTPDatasetCollector: Sendable {
    private let limit: Int
    /// What the dataset is, for the message of one that is too long; made only then.
    private let subject: @Sendable () -> String
    private let collected = Locked<[UInt8]>([])

    /// Creates a collector for `subject`, such as `"the answer to GetDeviceInfo"`, of at most `limit` bytes.
    init(limit: Int, subject: @escaping @Sendable @autoclosure () -> String) {
        self.limit = limit
        self.subject = subject
    }

    /// Forgets what was collected, for a transaction asked again.
    func reset() {
        collected.withLock { $0 = [] }
    }

    /// Appends a slice.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the dataset grows past the limit.
    func append(_ slice: UnsafeRawBufferPointer) throws(ViewfinderError) {
        let limit = limit
        let subject = subject
        try collected.withLock { (bytes) throws(ViewfinderError) in
            guard slice.count <= limit - bytes.count else {
                bytes = []
                throw ViewfinderError(
                    .malformedData,
                    "\(subject()) is longer than the \(limit) bytes a dataset may take; if the camera is right, raise "
                        + "PTPSession.Configuration.maximumDatasetLength")
            }
            bytes.append(contentsOf: slice)
        }
    }

    /// The bytes collected.
    var bytes: [UInt8] { collected.withLock { $0 } }
}

extension PTPSession {
    /// Runs a transaction whose data-in phase is a dataset, collecting at most
    /// ``Configuration/maximumDatasetLength`` bytes of it.
    func dataset(_ operation: PTPOperationCode, parameters: [UInt32] = []) async throws -> [UInt8] {
        let core = core
        return try await core.perform { flag in
            try core.dataset(operation, parameters: parameters, cancellation: flag)
        }
    }
}

extension PTPSessionCore {
    /// Runs a transaction whose data-in phase is a dataset, collecting at most
    /// ``PTPSession/Configuration/maximumDatasetLength`` bytes of it; runs on the command thread.
    func dataset(
        _ operation: PTPOperationCode, parameters: [UInt32] = [], cancellation: PTPCancellationFlag
    ) throws -> [UInt8] {
        let collector = PTPDatasetCollector(
            limit: configuration.maximumDatasetLength, subject: "the camera's answer to \(operation)")
        _ = try transaction(
            operation, parameters: parameters, dataOut: nil,
            dataIn: .stream(consumer: { try collector.append($0) }, progress: nil), cancellation: cancellation)
        return collector.bytes
    }
}
