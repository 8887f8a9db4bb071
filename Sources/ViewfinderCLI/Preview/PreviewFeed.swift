import Viewfinder
import ViewfinderSystem

/// The frames a preview shows: only the newest one, handed to each viewer when the viewer is ready for another.
///
/// The feed is a capture context's processor, so any frame source feeds it (``process(_:)``); JPEG images from
/// elsewhere, such as a network camera's live view, go to ``publish(jpeg:)``. Nothing queues. The feed keeps the
/// newest frame and encodes it as JPEG only when a viewer asks for it, once however many viewers ask, so a slow
/// viewer costs neither memory nor encoding work: it gets fewer frames.
final class PreviewFeed: FrameProcessor {
    /// What the feed has seen, for `/stats`.
    struct Statistics: Sendable {
        /// Frames published so far.
        var frames: UInt64 = 0
        /// Frames published per second, recently.
        var framesPerSecond: Double = 0
        /// Frames encoded as JPEG for viewers.
        var framesEncoded: UInt64 = 0
        /// The size of the newest frame.
        var dimensions: Dimensions?
        /// The size of the newest JPEG image handed out, in bytes.
        var jpegBytes = 0
        /// Why the source or the encoding failed, if one did.
        var failure: String?
    }

    private struct Latest {
        /// The newest frame, while it is not encoded yet.
        var frame: Frame?
        var encoded: [UInt8]?
        var number: UInt64 = 0

        func encodedImage(newerThan number: UInt64) -> (number: UInt64, bytes: [UInt8])? {
            guard self.number > number, let encoded else { return nil }
            return (self.number, encoded)
        }
    }

    private struct State {
        var latest = Latest()
        var statistics = Statistics()
        var meter = RateMeter()
        var waiters: [ObjectIdentifier: Wakeup] = [:]
    }

    private let state = Locked(State())
    /// The encoder, used by one viewer at a time: viewers asking for the same frame wait for one encoding instead of
    /// each doing it.
    private let encoder: Locked<FrameJPEG>
    private let failureHandler: @Sendable (String) -> Void

    /// Creates a feed.
    ///
    /// - Parameters:
    ///   - quality: The JPEG quality frames are encoded with, from 1 to 100.
    ///   - onFailure: Called once with the reason when the source fails (see ``fail(_:)``).
    init(quality: Int, onFailure: @escaping @Sendable (String) -> Void = { _ in }) {
        encoder = Locked(FrameJPEG(quality: quality))
        failureHandler = onFailure
    }

    /// Makes `frame` the newest, dropping the one before if no viewer took it; called on the context's thread.
    func process(_ frame: Frame) {
        let dimensions = Dimensions(width: frame.pixelBuffer.width, height: frame.pixelBuffer.height)
        publish(Latest(frame: frame), dimensions: dimensions)
    }

    /// Makes a JPEG image the newest frame, such as a network camera's live view frame.
    func publish(jpeg bytes: [UInt8]) {
        publish(Latest(encoded: bytes), dimensions: nil)
    }

    private func publish(_ latest: Latest, dimensions: Dimensions?) {
        let waiters = state.withLock { state in
            state.statistics.frames += 1
            state.meter.record()
            state.latest = Latest(frame: latest.frame, encoded: latest.encoded, number: state.statistics.frames)
            if let dimensions { state.statistics.dimensions = dimensions }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Notes that the source failed and stops holding its last frame; the first failure reaches `onFailure`.
    func fail(_ reason: String) {
        let first = state.withLock { state in
            defer { state.statistics.failure = state.statistics.failure ?? reason }
            state.latest.frame = nil
            return state.statistics.failure == nil
        }
        if first { failureHandler(reason) }
    }

    /// Lets go of the newest frame, so a capture device gets its buffer back; viewers keep its JPEG if they had it.
    func releaseFrame() {
        state.withLock { $0.latest.frame = nil }
    }

    /// The newest frame as JPEG with its number, if it is newer than frame `number`; `nil` otherwise.
    ///
    /// Frames are numbered from 1 in the order they were published.
    func jpeg(newerThan number: UInt64) -> (number: UInt64, bytes: [UInt8])? {
        if let ready = state.withLock({ $0.latest.encodedImage(newerThan: number) }) {
            return ready
        }
        let outcome = encoder.withLock { jpeg -> Result<(number: UInt64, bytes: [UInt8]), EncodingFailure>? in
            // Another viewer may have encoded the frame while this one waited.
            let pending = state.withLock { state -> (UInt64, Frame)? in
                guard state.latest.number > number, state.latest.encoded == nil, let frame = state.latest.frame else {
                    return nil
                }
                return (state.latest.number, frame)
            }
            guard let (pendingNumber, frame) = pending else {
                return state.withLock { $0.latest.encodedImage(newerThan: number) }.map { .success($0) }
            }
            do {
                let bytes = try jpeg.encode(frame.pixelBuffer)
                state.withLock { state in
                    state.statistics.framesEncoded += 1
                    state.statistics.jpegBytes = bytes.count
                    if state.latest.number == pendingNumber {
                        state.latest.encoded = bytes
                        state.latest.frame = nil
                    }
                }
                return .success((pendingNumber, bytes))
            } catch {
                return .failure(
                    EncodingFailure(reason: "cannot encode \(frame.pixelBuffer.format) frames as JPEG: \(error)"))
            }
        }
        switch outcome {
        case .success(let image): return image
        case .failure(let failure):
            // Reported outside the lock: the failure handler is the command's.
            fail(failure.reason)
            return nil
        case nil: return nil
        }
    }

    private struct EncodingFailure: Error {
        var reason: String
    }

    /// Wakes `waiter` whenever a frame is published, until ``removeWaiter(_:)``.
    func addWaiter(_ waiter: Wakeup) {
        state.withLock { $0.waiters[ObjectIdentifier(waiter)] = waiter }
    }

    /// Stops waking `waiter`.
    func removeWaiter(_ waiter: Wakeup) {
        state.withLock { _ = $0.waiters.removeValue(forKey: ObjectIdentifier(waiter)) }
    }

    /// What the feed has seen so far.
    var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.framesPerSecond = state.meter.rate()
            return statistics
        }
    }
}
