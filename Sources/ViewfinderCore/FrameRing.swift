import Synchronization

/// A bounded first-in, first-out queue of frames that any number of threads append to and remove from without a
/// lock, and that drops its oldest frame to make room.
///
/// A frame source's producers append while the context's thread removes. With a lock, a producer that appends as
/// fast as it can keeps the lock busy and starves the context's thread; here each side only claims a position with
/// one compare-and-exchange, so neither ever waits for the other to be scheduled.
///
/// Each slot carries a sequence number that says whose turn it is (after Dmitry Vyukov's bounded queue, with
/// doubled numbers so that one slot is enough): a slot with sequence `2p` is free for the frame at position `p`;
/// once the frame is stored the sequence becomes `2p + 1`, which makes it removable; removing it sets
/// `2(p + capacity)`, which frees it for the next lap. A slot is only ever read or written by the one thread that
/// claimed its position, and the sequence's release and acquire order those accesses.
final class FrameRing: @unchecked Sendable {
    // Unchecked: `frames[i]` is accessed only by the thread that claimed a position mapping to slot `i`, between
    // an acquiring load and a releasing store of `sequences[i]`, as described above.

    /// The most frames the ring holds.
    let capacity: Int
    private let sequences: UnsafeMutablePointer<Atomic<Int>>
    private let frames: UnsafeMutablePointer<Frame?>
    /// The number of frames ever appended; the next frame's position.
    private let appended = Atomic<Int>(0)
    /// The number of frames ever removed; the oldest frame's position.
    private let removed = Atomic<Int>(0)
    /// Set while the consumer takes a frame.
    ///
    /// A producer that has to drop a frame first waits a moment for it to clear: the producer's drops and the
    /// consumer's take claim the same position, and a producer dropping frames as fast as it can could otherwise
    /// win that race again and again and starve the consumer.
    private let consumerIsTaking = Atomic<Bool>(false)

    /// Creates an empty ring that holds up to `capacity` frames.
    init(capacity: Int) {
        precondition(capacity > 0, "a frame ring holds at least one frame")
        self.capacity = capacity
        sequences = .allocate(capacity: capacity)
        frames = .allocate(capacity: capacity)
        for index in 0..<capacity {
            (sequences + index).initialize(to: Atomic(2 * index))
            (frames + index).initialize(to: nil)
        }
    }

    deinit {
        sequences.deinitialize(count: capacity)
        sequences.deallocate()
        frames.deinitialize(count: capacity)
        frames.deallocate()
    }

    /// The number of frames ever appended.
    var appendedCount: Int { appended.load(ordering: .relaxed) }

    /// The number of frames in the ring now; exact only while no thread appends or removes.
    var count: Int { max(0, appended.load(ordering: .acquiring) - removed.load(ordering: .acquiring)) }

    /// Appends `frame`, removing (and so releasing) the oldest frames while the ring is full; returns how many it
    /// removed.
    ///
    /// Never waits for a lock. When another thread is halfway through removing the frame in the slot it needs, it
    /// drops the next oldest frame instead, or, if there is none, retries until that removal's last store is done.
    func append(_ frame: consuming Frame) -> Int {
        var dropped = 0
        var position = appended.load(ordering: .relaxed)
        while true {
            let slot = position % capacity
            let sequence = sequences[slot].load(ordering: .acquiring)
            if sequence == 2 * position {
                let (exchanged, current) = appended.compareExchange(
                    expected: position, desired: position + 1, ordering: .relaxed)
                if exchanged {
                    frames[slot] = consume frame
                    sequences[slot].store(2 * position + 1, ordering: .releasing)
                    return dropped
                }
                position = current
            } else if sequence < 2 * position {
                // The slot still holds the frame from the previous lap: the ring is full.
                yieldToTheConsumer()
                if removeFirst() != nil { dropped += 1 }
                position = appended.load(ordering: .relaxed)
            } else {
                // Another producer took this position; try the next one.
                position = appended.load(ordering: .relaxed)
            }
        }
    }

    /// Removes and returns the oldest frame for the consumer, or `nil` when there is none (or its producer has not
    /// finished storing it yet); producers that would drop a frame meanwhile let it go first.
    func takeFirst() -> Frame? {
        consumerIsTaking.store(true, ordering: .relaxed)
        defer { consumerIsTaking.store(false, ordering: .relaxed) }
        return removeFirst()
    }

    /// Removes (and so releases) every frame that is stored now; returns how many it removed.
    ///
    /// A frame whose producer is still storing it stays, as with ``takeFirst()``.
    func removeAll() -> Int {
        var removedCount = 0
        while removeFirst() != nil {
            removedCount += 1
        }
        return removedCount
    }

    /// Waits, for a bounded number of checks, while the consumer takes a frame.
    private func yieldToTheConsumer() {
        var checks = 0
        while checks < 1024 && consumerIsTaking.load(ordering: .relaxed) {
            checks += 1
        }
    }

    /// Removes and returns the oldest frame, or `nil` when there is none (or its producer has not finished storing
    /// it yet).
    private func removeFirst() -> Frame? {
        var position = removed.load(ordering: .relaxed)
        while true {
            let slot = position % capacity
            let sequence = sequences[slot].load(ordering: .acquiring)
            if sequence == 2 * position + 1 {
                let (exchanged, current) = removed.compareExchange(
                    expected: position, desired: position + 1, ordering: .relaxed)
                if exchanged {
                    let frame = frames[slot]
                    frames[slot] = nil
                    sequences[slot].store(2 * (position + capacity), ordering: .releasing)
                    return frame
                }
                position = current
            } else if sequence < 2 * position + 1 {
                return nil
            } else {
                // Another thread removed this frame; try the next one.
                position = removed.load(ordering: .relaxed)
            }
        }
    }
}
