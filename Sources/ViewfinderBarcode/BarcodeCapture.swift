import ViewfinderCore
import ViewfinderSystem

/// Barcode capture: a capture mode that reads the barcodes in a `DataCaptureContext`'s frames and tells its
/// listeners of each code it newly recognises.
///
/// Create it with a context and settings, listen, and switch the context's source on. The mode reads each frame on
/// the context's thread, inside the context's one-frame-in-flight rule: while it reads, the source holds back the
/// next frame and drops the oldest when frames keep coming, so a slow read costs frames, never latency or memory.
///
/// ```swift
/// let context = DataCaptureContext()
/// var settings = BarcodeCaptureSettings(enabledSymbologies: [.qr, .ean13UPCA, .code128])
/// settings.codeDuplicateFilter = .seconds(1)
/// let barcodeCapture = BarcodeCapture(context: context, settings: settings)
/// let token = barcodeCapture.addListener { session in
///     for barcode in session.newlyRecognizedBarcodes {
///         print("\(barcode.symbology): \(barcode.text ?? "binary") at \(barcode.location.center)")
///     }
/// }
/// await context.setFrameSource(cameraSource)
/// await cameraSource.switch(toDesiredState: .on)
/// ```
///
/// Listeners run on the context's thread while the frame is in flight: keep them short, and hand longer work to a
/// queue of your own. Setting ``isEnabled`` to `false` makes the context skip the mode from the next frame on.
public final class BarcodeCapture: DataCaptureMode {
    typealias Listener = @Sendable (BarcodeCapture, BarcodeCaptureSession) -> Void

    private struct State: Sendable {
        var isEnabled = true
        var reader: BarcodeReader
        var listeners = ListenerList<Listener>()
        var lastSeen: [BarcodeKey: MonotonicTimestamp] = [:]
        var statistics = BarcodeCaptureStatistics()
    }

    /// The most codes the duplicate filter remembers; the one seen longest ago is forgotten first.
    static let rememberedCodeLimit = 512

    private let state: Locked<State>

    /// Creates barcode capture with `settings` and adds it to `context`, enabled.
    ///
    /// - Parameters:
    ///   - context: The context whose frames to read, or `nil` to add it later with
    ///     `DataCaptureContext.addMode(_:)`.
    ///   - settings: What to read.
    public init(context: DataCaptureContext?, settings: BarcodeCaptureSettings = BarcodeCaptureSettings()) {
        state = Locked(State(reader: BarcodeReader(settings: settings)))
        context?.addMode(self)
    }

    /// Whether the context reads barcodes in its frames.
    public var isEnabled: Bool {
        get { state.withLock { $0.isEnabled } }
        set { state.withLock { $0.isEnabled = newValue } }
    }

    /// The settings in use.
    public var settings: BarcodeCaptureSettings {
        state.withLock { $0.reader.settings }
    }

    /// Uses `settings` from the next frame on; the codes already seen stay seen.
    public func apply(_ settings: BarcodeCaptureSettings) {
        let reader = BarcodeReader(settings: settings)
        state.withLock { $0.reader = reader }
    }

    /// Forgets the codes seen, so that the next sighting of each is reported as new.
    public func reset() {
        state.withLock { $0.lastSeen.removeAll() }
    }

    /// The counts of frames read and codes recognised and filtered.
    public var statistics: BarcodeCaptureStatistics {
        state.withLock { $0.statistics }
    }

    /// Tells `listener` of each frame with newly recognised codes until the returned token is released.
    public func addListener(_ listener: some BarcodeCaptureListener) -> ObservationToken {
        add { capture, session in listener.barcodeCapture(capture, didScanIn: session) }
    }

    /// Calls `handler` with each frame's newly recognised codes until the returned token is released.
    public func addListener(_ handler: @escaping @Sendable (BarcodeCaptureSession) -> Void) -> ObservationToken {
        add { _, session in handler(session) }
    }

    private func add(_ listener: @escaping Listener) -> ObservationToken {
        let id = state.withLock { $0.listeners.add(listener) }
        return ObservationToken { [weak self] in self?.state.withLock { $0.listeners.remove(id) } }
    }

    /// Reads one frame; the context calls it while the mode is enabled.
    public func process(_ frame: Frame) throws {
        let reader = state.withLock { $0.reader }
        let read = try reader.read(frame)
        let filter = reader.settings.codeDuplicateFilter
        let (newlyRecognized, listeners) = state.withLock { state in
            let fresh = Self.unseen(read, at: frame.timestamp, filter: filter, lastSeen: &state.lastSeen)
            state.statistics.framesRead += 1
            state.statistics.barcodesRecognized += fresh.count
            state.statistics.duplicatesFiltered += read.count - fresh.count
            return (fresh, fresh.isEmpty ? [] : state.listeners.listeners)
        }
        guard !newlyRecognized.isEmpty else { return }
        let session = BarcodeCaptureSession(newlyRecognizedBarcodes: newlyRecognized, frame: frame)
        for listener in listeners { listener(self, session) }
    }

    /// The codes of `read` that the duplicate filter lets through, remembering each sighting.
    private static func unseen(
        _ read: [Barcode], at now: MonotonicTimestamp, filter: Duration,
        lastSeen: inout [BarcodeKey: MonotonicTimestamp]
    ) -> [Barcode] {
        guard filter != .zero else { return read }
        var fresh: [Barcode] = []
        for barcode in read {
            // Negative filters never forget; positive ones forget a code away for longer than the interval.
            let previous = lastSeen.updateValue(now, forKey: BarcodeKey(barcode))
            if let previous, filter < .zero || previous > now || now.duration(since: previous) <= filter { continue }
            fresh.append(barcode)
        }
        while lastSeen.count > rememberedCodeLimit, let oldest = lastSeen.min(by: { $0.value < $1.value }) {
            lastSeen.removeValue(forKey: oldest.key)
        }
        return fresh
    }
}

/// What makes two sightings the same code.
struct BarcodeKey: Hashable, Sendable {
    let symbology: Symbology
    let rawBytes: [UInt8]
    let text: String?

    init(_ barcode: Barcode) {
        symbology = barcode.symbology
        rawBytes = barcode.rawBytes
        text = barcode.text
    }
}

/// Told by a ``BarcodeCapture`` of each frame in which it newly recognised codes.
///
/// ```swift
/// final class Checkout: BarcodeCaptureListener {
///     func barcodeCapture(_ barcodeCapture: BarcodeCapture, didScanIn session: BarcodeCaptureSession) {
///         for barcode in session.newlyRecognizedBarcodes where barcode.symbology == .ean13UPCA {
///             print("add \(barcode.text ?? "") to the basket")
///         }
///     }
/// }
/// ```
public protocol BarcodeCaptureListener: AnyObject, Sendable {
    /// Called on the context's thread, while the frame is in flight, with the frame's newly recognised codes.
    func barcodeCapture(_ barcodeCapture: BarcodeCapture, didScanIn session: BarcodeCaptureSession)
}

/// The codes a ``BarcodeCapture`` newly recognised in one frame.
public struct BarcodeCaptureSession: Sendable {
    /// The codes read in the frame that the duplicate filter let through, never empty.
    public let newlyRecognizedBarcodes: [Barcode]
    /// The frame they were read in; holding it holds its pixel buffer.
    public let frame: Frame

    /// The frame's sequence number in its source's stream.
    public var frameSequenceNumber: UInt64 { frame.sequenceNumber }
    /// When the frame was captured.
    public var frameTimestamp: MonotonicTimestamp { frame.timestamp }
}

/// Counts of what a ``BarcodeCapture`` did.
public struct BarcodeCaptureStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Frames read.
    public var framesRead = 0
    /// Codes reported to the listeners.
    public var barcodesRecognized = 0
    /// Sightings the duplicate filter held back.
    public var duplicatesFiltered = 0

    /// Creates statistics with every count zero.
    public init() {}

    /// The counts, for people.
    public var description: String {
        "frames read \(framesRead), barcodes recognized \(barcodesRecognized), duplicates filtered \(duplicatesFiltered)"
    }
}
