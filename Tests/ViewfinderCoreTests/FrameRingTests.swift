import Dispatch
import Synchronization
import Testing

@testable import ViewfinderCore

@Suite struct FrameRingTests {
    @Test func keepsOrderAndDropsTheOldestWhenFull() {
        let ring = FrameRing(capacity: 3)
        #expect(ring.takeFirst() == nil)
        var dropped = 0
        for index in 0..<5 {
            dropped += ring.append(makeFrame(UInt64(index)))
        }
        #expect(dropped == 2)
        #expect(ring.count == 3)
        #expect(ring.appendedCount == 5)
        #expect([ring.takeFirst(), ring.takeFirst(), ring.takeFirst()].map { $0?.sequenceNumber } == [2, 3, 4])
        #expect(ring.takeFirst() == nil)
        #expect(ring.append(makeFrame(5)) == 0)
        #expect(ring.takeFirst()?.sequenceNumber == 5)
    }

    @Test func aRingOfOneKeepsTheNewest() {
        let ring = FrameRing(capacity: 1)
        for index in 0..<4 {
            _ = ring.append(makeFrame(UInt64(index)))
        }
        #expect(ring.count == 1)
        #expect(ring.takeFirst()?.sequenceNumber == 3)
    }

    @Test func concurrentProducersAndAConsumerLoseNothingAndReleaseEveryBuffer() throws {
        let released = Atomic<Int>(0)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        let plane = PixelBuffer.Plane(
            baseAddress: UnsafeRawPointer(memory.baseAddress!), bytesPerRow: 8, width: 8, height: 8, byteCount: 64)
        let producers = 4
        let framesEach = 5000
        let total = producers * framesEach
        let taken = Recorder<UInt64>()
        let dropped = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        do {
            let ring = FrameRing(capacity: 2)
            DispatchQueue.concurrentPerform(iterations: producers + 1) { worker in
                if worker == producers {
                    // The consumer takes frames until every producer is done and the ring is empty.
                    while true {
                        if let frame = ring.takeFirst() {
                            taken.append(frame.sequenceNumber)
                        } else if finished.load(ordering: .acquiring) == producers {
                            break
                        }
                    }
                    return
                }
                for index in 0..<framesEach {
                    let buffer = try! PixelBuffer(width: 8, height: 8, format: .gray8, borrowing: [plane]) {
                        released.add(1, ordering: .relaxed)
                    }
                    let number = UInt64(worker * framesEach + index)
                    let count = ring.append(Frame(pixelBuffer: buffer, timestamp: .now(), sequenceNumber: number))
                    dropped.add(count, ordering: .relaxed)
                }
                finished.add(1, ordering: .releasing)
            }
            while let frame = ring.takeFirst() { taken.append(frame.sequenceNumber) }
            #expect(ring.appendedCount == total)
        }
        let numbers = taken.all
        #expect(Set(numbers).count == numbers.count)
        #expect(numbers.count + dropped.load(ordering: .relaxed) == total)
        for producer in 0..<producers {
            let range = UInt64(producer * framesEach)..<UInt64((producer + 1) * framesEach)
            let mine = numbers.filter { range.contains($0) }
            #expect(mine == mine.sorted())
        }
        #expect(released.load(ordering: .relaxed) == total)
    }
}
