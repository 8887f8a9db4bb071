import Foundation
import Viewfinder
import ViewfinderSystem

/// Saves the frames a capture context hands it as JPEG files until it has enough, and measures the device meanwhile.
///
/// As the context's processor it encodes and writes each frame before it returns, so while it works the source drops
/// new frames rather than queueing them; as the source's delegate it ends the capture when the device fails.
final class FrameSaver: FrameProcessor, CameraSourceDelegate {
    /// Why saving ended.
    enum Ending: Sendable {
        /// Every frame asked for is saved.
        case finished
        /// No frame arrived for longer than the stall timeout.
        case stalled
        /// The user pressed Ctrl-C.
        case interrupted
        /// Capture stopped with an error, such as the device being unplugged.
        case failed(ViewfinderError)
        /// A frame could not be encoded or written.
        case saveFailed(CommandFailure)
    }

    /// A frame written to disk.
    struct SavedFrame: Encodable, Sendable {
        var path: String
        var sequence: UInt64
        var bytes: Int
        var width: Int
        var height: Int
    }

    /// The frames the context handed over, by their own sequence numbers and driver timestamps.
    struct Measurement: Sendable {
        /// Frames the processor was given.
        var seen = 0
        var firstSequence: UInt64?
        var lastSequence: UInt64?
        var firstTimestamp: MonotonicTimestamp?
        var lastTimestamp: MonotonicTimestamp?

        /// Seconds between the first and the last frame.
        var seconds: Double {
            guard let firstTimestamp, let lastTimestamp else { return 0 }
            return lastTimestamp.duration(since: firstTimestamp).inSeconds
        }

        /// The device's frame rate: frames it produced (by their sequence numbers, so dropped frames count) per
        /// second between the first and the last frame handed over (by the driver's timestamps).
        var framesPerSecond: Double? {
            guard let firstSequence, let lastSequence, lastSequence > firstSequence, seconds > 0 else { return nil }
            return Double(lastSequence - firstSequence) / seconds
        }
    }

    /// What has happened so far.
    struct Progress: Sendable {
        var saved: [SavedFrame] = []
        var measurement = Measurement()
        var lastArrival = MonotonicTimestamp.now()
        var ending: Ending?
    }

    private let count: Int
    private let name: String
    private let directory: OutputDirectory
    private let jpeg: FrameJPEG
    private let state = Locked(Progress())

    /// Creates a saver of `count` frames named `NAME-0001.jpg` and so on in `directory`.
    init(count: Int, name: String, directory: OutputDirectory, jpeg: FrameJPEG) {
        self.count = count
        self.name = name
        self.directory = directory
        self.jpeg = jpeg
    }

    func process(_ frame: Frame) throws {
        let number = state.withLock { state -> Int? in
            state.lastArrival = .now()
            state.measurement.seen += 1
            state.measurement.firstSequence = state.measurement.firstSequence ?? frame.sequenceNumber
            state.measurement.lastSequence = frame.sequenceNumber
            state.measurement.firstTimestamp = state.measurement.firstTimestamp ?? frame.timestamp
            state.measurement.lastTimestamp = frame.timestamp
            return state.ending == nil ? state.saved.count + 1 : nil
        }
        guard let number else { return }
        let image = frame.pixelBuffer
        let saved: SavedFrame
        do {
            let bytes = try jpeg.encode(image)
            let path = try directory.write(bytes, to: "\(name)-\(String(format: "%04d", number)).jpg")
            saved = SavedFrame(
                path: path, sequence: frame.sequenceNumber, bytes: bytes.count, width: image.width, height: image.height
            )
        } catch let failure as CommandFailure {
            end(.saveFailed(failure))
            throw failure
        } catch {
            let failure = CommandFailure("cannot encode a \(image.format) frame as JPEG: \(error)")
            end(.saveFailed(failure))
            throw failure
        }
        let done = state.withLock { state in
            state.saved.append(saved)
            return state.saved.count == count
        }
        if done { end(.finished) }
    }

    func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {
        end(.failed(error))
    }

    /// Ends saving because of `ending`, unless it has ended already.
    func end(_ ending: Ending) {
        state.withLock { $0.ending = $0.ending ?? ending }
    }

    /// Ends saving as stalled when no frame arrived within `timeout`.
    func endIfStalled(after timeout: Duration) {
        state.withLock { state in
            if state.ending == nil && MonotonicTimestamp.now().duration(since: state.lastArrival) > timeout {
                state.ending = .stalled
            }
        }
    }

    /// What has happened so far.
    var progress: Progress { state.withLock { $0 } }
}
