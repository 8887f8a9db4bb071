/// How far a transfer from the camera has come.
public struct CameraTransferProgress: Hashable, Sendable {
    /// The bytes transferred so far.
    public let completedByteCount: UInt64
    /// The bytes the whole transfer holds.
    public let totalByteCount: UInt64

    /// Creates a progress record.
    public init(completedByteCount: UInt64, totalByteCount: UInt64) {
        self.completedByteCount = completedByteCount
        self.totalByteCount = totalByteCount
    }

    /// The part done, from 0 to 1; 1 for an empty transfer.
    public var fractionCompleted: Double {
        totalByteCount == 0 ? 1 : min(Double(completedByteCount) / Double(totalByteCount), 1)
    }
}
