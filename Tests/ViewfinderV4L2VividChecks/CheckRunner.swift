import ViewfinderCore
import ViewfinderSystem
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// A failed expectation inside a check.
struct CheckFailure: Error, CustomStringConvertible {
    var description: String
}

/// Fails the running check with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(CheckFailure) {
    if !condition { throw CheckFailure(description: message()) }
}

/// Unwraps a value, or fails the running check with `message`.
func require<Value>(_ value: Value?, _ message: @autoclosure () -> String) throws(CheckFailure) -> Value {
    guard let value else { throw CheckFailure(description: message()) }
    return value
}

/// Runs checks one after another and prints one `VIVID PASS` or `VIVID FAIL` line for each, for the harness to count.
final class CheckRunner {
    private(set) var failures = 0

    func run(_ name: String, _ body: () async throws -> String) async {
        let start = MonotonicTimestamp.now()
        do {
            let detail = try await body()
            report("VIVID PASS \(name) (\(milliseconds(since: start)) ms): \(detail)")
        } catch {
            failures += 1
            report("VIVID FAIL \(name) (\(milliseconds(since: start)) ms): \(error)")
        }
    }

    func report(_ line: String) {
        print(line)
        fflush(nil)
    }

    private func milliseconds(since start: MonotonicTimestamp) -> Int64 {
        let elapsed = MonotonicTimestamp.now().duration(since: start).components
        return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
    }
}

/// Waits until `condition` holds or `timeout` passes; returns whether it held.
func wait(upTo timeout: Duration, until condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// What a context's processor saw: sequence numbers, driver timestamps, formats, plane sizes and luma.
final class FrameLog: Sendable {
    struct Entry: Sendable {
        var sequence: UInt64
        var timestamp: MonotonicTimestamp
        var format: PixelFormat
        var width: Int
        var height: Int
        var planeBytes: [Int]
        var meanLuma: Double
        var minimumLuma: UInt8
    }

    private let entries = Locked<[Entry]>([])
    private let held = Locked<[Frame]>([])
    let holdsFrames: Bool

    init(holdsFrames: Bool = false) {
        self.holdsFrames = holdsFrames
    }

    var count: Int { entries.withLock { $0.count } }
    var all: [Entry] { entries.withLock { $0 } }

    func record(_ frame: Frame) {
        let buffer = frame.pixelBuffer
        let planeBytes = buffer.withUnsafePlanes { $0.map(\.byteCount) }
        let (mean, minimum) = Self.luma(of: buffer)
        entries.withLock {
            $0.append(
                Entry(
                    sequence: frame.sequenceNumber, timestamp: frame.timestamp, format: buffer.format,
                    width: buffer.width, height: buffer.height, planeBytes: planeBytes, meanLuma: mean,
                    minimumLuma: minimum))
        }
        if holdsFrames { held.withLock { $0.append(frame) } }
    }

    /// The frames held so far, oldest first.
    var heldFrames: [Frame] { held.withLock { $0 } }

    func releaseHeld() {
        let frames = held.withLock { frames in
            defer { frames = [] }
            return frames
        }
        _ = frames
    }

    /// The mean and the minimum of every 16th luma sample of the middle row band, clear of vivid's text overlay
    /// (YUYV: even bytes; NV12: the first plane).
    static func luma(of buffer: PixelBuffer) -> (mean: Double, minimum: UInt8) {
        buffer.withUnsafePlanes { planes in
            let plane = planes[0]
            let step = buffer.format == .yuyv ? 2 : 1
            var total = 0
            var count = 0
            var minimum = UInt8.max
            for row in stride(from: plane.height / 4, to: plane.height * 3 / 4, by: 8) {
                let line = plane.baseAddress + row * plane.bytesPerRow
                for column in stride(from: 0, to: buffer.width, by: 16) {
                    let sample = line.load(fromByteOffset: column * step, as: UInt8.self)
                    total += Int(sample)
                    minimum = min(minimum, sample)
                    count += 1
                }
            }
            return (count == 0 ? 0 : Double(total) / Double(count), minimum)
        }
    }
}

/// Records a camera source's delegate calls with the time each arrived.
final class DelegateLog: CameraSourceDelegate {
    enum Event: Sendable {
        case interrupted(CameraSourceInterruptionReason)
        case interruptionEnded
        case failed(ViewfinderError)
        case added(CaptureDevice)
        case removed(CaptureDevice)
    }

    private let events = Locked<[(MonotonicTimestamp, Event)]>([])

    var all: [(MonotonicTimestamp, Event)] { events.withLock { $0 } }

    private func add(_ event: Event) {
        events.withLock { $0.append((.now(), event)) }
    }

    func cameraSourceWasInterrupted(_ source: CameraSource, reason: CameraSourceInterruptionReason) {
        add(.interrupted(reason))
    }

    func cameraSourceInterruptionEnded(_ source: CameraSource) {
        add(.interruptionEnded)
    }

    func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {
        add(.failed(error))
    }

    func cameraSource(_ source: CameraSource, didAddDevice device: CaptureDevice) {
        add(.added(device))
    }

    func cameraSource(_ source: CameraSource, didRemoveDevice device: CaptureDevice) {
        add(.removed(device))
    }
}
