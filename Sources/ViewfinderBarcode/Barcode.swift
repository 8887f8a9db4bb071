import ViewfinderCore

/// A barcode read from a frame: what it says and where it is.
public struct Barcode: Hashable, Sendable, CustomStringConvertible {
    /// The kind of code.
    public var symbology: Symbology
    /// The code's text, decoded as its symbology and any character-set marks say; `nil` for binary content that is
    /// not text.
    public var text: String?
    /// The bytes the code holds, before any text decoding.
    public var rawBytes: [UInt8]
    /// Where the code is, in the frame as it is shown (see ``Quadrilateral``).
    public var location: Quadrilateral
    /// The sequence number of the frame it was read from.
    public var frameSequenceNumber: UInt64

    /// Creates a barcode.
    public init(
        symbology: Symbology, text: String?, rawBytes: [UInt8], location: Quadrilateral, frameSequenceNumber: UInt64
    ) {
        self.symbology = symbology
        self.text = text
        self.rawBytes = rawBytes
        self.location = location
        self.frameSequenceNumber = frameSequenceNumber
    }

    /// The symbology and text, for people.
    public var description: String {
        "\(symbology) \"\(text ?? rawBytes.map { String($0, radix: 16) }.joined(separator: " "))\""
    }
}

/// A point in an image, in pixels from its top-left corner: x to the right, y down.
public struct ImagePoint: Hashable, Sendable, CustomStringConvertible {
    /// Pixels from the left edge.
    public var x: Int
    /// Pixels from the top edge.
    public var y: Int

    /// Creates a point.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The point as "(x, y)".
    public var description: String { "(\(x), \(y))" }
}

/// The four corners of a code, named as the code itself has them: a QR code's top left is the corner between its
/// three finder patterns' top-left one, wherever the code is turned.
///
/// Points are in the frame as it is shown: its pixels turned upright as `Frame.orientation` says and, when the
/// frame is mirrored (`Frame.isMirrored`), flipped back, as `PixelConverter.makeUpright(_:)` shows it. That picture
/// is `width × height` for `.up` and `.down` frames and `height × width` for `.left` and `.right` ones.
public struct Quadrilateral: Hashable, Sendable, CustomStringConvertible {
    /// The code's top-left corner.
    public var topLeft: ImagePoint
    /// The code's top-right corner.
    public var topRight: ImagePoint
    /// The code's bottom-right corner.
    public var bottomRight: ImagePoint
    /// The code's bottom-left corner.
    public var bottomLeft: ImagePoint

    /// Creates a quadrilateral from its corners.
    public init(topLeft: ImagePoint, topRight: ImagePoint, bottomRight: ImagePoint, bottomLeft: ImagePoint) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The corners in order: top left, top right, bottom right, bottom left.
    public var corners: [ImagePoint] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The mean of the four corners.
    public var center: ImagePoint {
        let points = corners
        return ImagePoint(x: points.reduce(0) { $0 + $1.x } / 4, y: points.reduce(0) { $0 + $1.y } / 4)
    }

    /// The corners, for people.
    public var description: String { corners.map(\.description).joined(separator: " ") }
}
