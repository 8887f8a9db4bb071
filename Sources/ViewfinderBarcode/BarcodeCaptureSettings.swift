/// What a ``BarcodeCapture`` or ``BarcodeReader`` looks for, and how often it reports a code.
///
/// ```swift
/// var settings = BarcodeCaptureSettings(enabledSymbologies: [.qr, .ean13UPCA])
/// settings.set(.code128, enabled: true)
/// settings.codeDuplicateFilter = .seconds(1)   // a code in view is reported once, again after a second away
/// ```
public struct BarcodeCaptureSettings: Hashable, Sendable {
    /// The symbologies read; others are not looked for, and fewer read faster.
    public var enabledSymbologies: Set<Symbology>
    /// How long a code must be out of view before it is reported again.
    ///
    /// `.zero` reports a code in every frame it is read in; a positive interval reports it once while it stays in view
    /// (seen again within the interval of its last sighting, by the frames' timestamps) and again once it has been
    /// away longer; a negative interval reports each code once, until ``BarcodeCapture/reset()``. Codes are the same
    /// when their symbology and bytes are.
    public var codeDuplicateFilter: Duration
    /// The most codes read from one frame, 1 to 255.
    public var maximumCodesPerFrame: Int
    /// Spends more time on each frame for codes that are small, blurred or poorly lit; for still images rather than
    /// a stream of frames.
    public var tryHarder: Bool

    /// The default: every symbology, no duplicate filter, at most 8 codes a frame, tuned for a stream of frames.
    public init(
        enabledSymbologies: Set<Symbology> = Set(Symbology.allCases), codeDuplicateFilter: Duration = .zero,
        maximumCodesPerFrame: Int = 8, tryHarder: Bool = false
    ) {
        self.enabledSymbologies = enabledSymbologies
        self.codeDuplicateFilter = codeDuplicateFilter
        self.maximumCodesPerFrame = maximumCodesPerFrame
        self.tryHarder = tryHarder
    }

    /// Enables or disables one symbology.
    public mutating func set(_ symbology: Symbology, enabled: Bool) {
        if enabled {
            enabledSymbologies.insert(symbology)
        } else {
            enabledSymbologies.remove(symbology)
        }
    }

    /// Settings for still images: every symbology, reading harder.
    public static var stillImage: BarcodeCaptureSettings { BarcodeCaptureSettings(tryHarder: true) }

    /// The zxing-cpp format mask of the enabled symbologies.
    var zxingFormats: UInt32 {
        enabledSymbologies.reduce(0) { $0 | $1.zxingFormats }
    }
}
