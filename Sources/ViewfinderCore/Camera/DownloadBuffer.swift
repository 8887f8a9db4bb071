import ViewfinderSystem

/// The bytes of a download to memory, bounded by a limit.
final class DownloadBuffer: Sendable {
    private let storage = Locked<[UInt8]>([])
    private let limit: Int
    private let name: String

    init(limit: Int, name: String) {
        self.limit = limit
        self.name = name
    }

    var bytes: [UInt8] { storage.withLock { $0 } }

    func append(_ chunk: [UInt8]) throws {
        try storage.withLock { bytes in
            guard chunk.count <= limit - bytes.count else {
                throw ViewfinderError(
                    .invalidArgument,
                    "\(name) is larger than the \(limit) bytes allowed in memory; download it in chunks instead")
            }
            bytes.append(contentsOf: chunk)
        }
    }
}
