import Synchronization
import ViewfinderSystem

/// A bounded set of reusable pixel buffers of one size and format.
///
/// A steady stream of frames can take its buffers from a pool and allocate nothing per frame. A buffer goes back
/// to the pool by itself once no copy of it is left; when every buffer is still in use, ``makeBuffer(initializingWith:)``
/// returns `nil` so the caller drops the frame instead of growing memory.
///
/// ```swift
/// let pool = try PixelBufferPool(width: 1920, height: 1080, format: .nv12FullRange, capacity: 4)
/// if let buffer = pool.makeBuffer(initializingWith: { planes in fill(planes) }) {
///     deliver(buffer)
/// } else {
///     droppedFrames += 1
/// }
/// ```
public final class PixelBufferPool: Sendable {
    /// The width of every buffer, in pixels.
    public let width: Int
    /// The height of every buffer, in pixels.
    public let height: Int
    /// The pixel format of every buffer.
    public let format: PixelFormat
    /// The most buffers the pool holds at once.
    public let capacity: Int
    private let rowAlignment: Int
    private let slots: Locked<[PixelBufferStorage]>

    /// Creates an empty pool; buffers are allocated as they are first needed, up to `capacity`.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` for a size, format or alignment a ``PixelBuffer`` cannot
    ///   have, or a capacity below 1.
    public init(width: Int, height: Int, format: PixelFormat, capacity: Int, rowAlignment: Int = 16) throws {
        guard capacity > 0 else {
            throw ViewfinderError(
                .invalidArgument, "a pixel buffer pool needs a capacity of at least 1, not \(capacity)")
        }
        // Fail early, with the same checks and message as allocation would give.
        _ = try PixelBufferStorage(width: 1, height: 1, format: format, rowAlignment: rowAlignment)
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw ViewfinderError(
                .invalidArgument, "a pixel buffer needs a size from 1x1 to 32768x32768, not \(width)x\(height)")
        }
        self.width = width
        self.height = height
        self.format = format
        self.capacity = capacity
        self.rowAlignment = rowAlignment
        self.slots = Locked([])
        slots.withLock { $0.reserveCapacity(min(capacity, 64)) }
    }

    /// The number of buffers handed out that still have copies alive.
    public var buffersInUse: Int {
        slots.withLock { slots in
            var inUse = 0
            for index in slots.indices where !isKnownUniquelyReferenced(&slots[index]) {
                inUse += 1
            }
            return inUse
        }
    }

    /// Takes a free buffer, fills it with `initialize`, and hands it out; `nil` when every buffer is in use.
    ///
    /// - Throws: Whatever `initialize` throws; the buffer then stays in the pool.
    public func makeBuffer(initializingWith initialize: (PixelBuffer.MutablePlanes) throws -> Void) rethrows
        -> PixelBuffer?
    {
        guard let storage = takeFreeStorage() else { return nil }
        try initialize(PixelBuffer.MutablePlanes(storage: storage))
        return PixelBuffer(storage: storage)
    }

    private func takeFreeStorage() -> PixelBufferStorage? {
        let found: PixelBufferStorage? = slots.withLock { slots in
            for index in slots.indices where isKnownUniquelyReferenced(&slots[index]) {
                return slots[index]
            }
            return nil
        }
        if let found {
            // The last user released its copy on another thread: order our writes after its reads.
            atomicMemoryFence(ordering: .acquiring)
            return found
        }
        // Allocate outside the lock; another thread may have filled the pool meanwhile.
        guard slots.withLock({ $0.count < capacity }),
            let storage = try? PixelBufferStorage(
                width: width, height: height, format: format, rowAlignment: rowAlignment)
        else { return nil }
        return slots.withLock { slots in
            guard slots.count < capacity else { return nil }
            slots.append(storage)
            return storage
        }
    }
}
