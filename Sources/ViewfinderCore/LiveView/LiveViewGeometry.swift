/// Where a live view frame's image lies and what it shows, in the coordinate space its camera gives: the frame's
/// aspect, the image within it, the part of the whole picture shown when magnified, the autofocus areas, and the way
/// the camera is held.
///
/// A camera that says nothing of it gets the image's own size as the aspect, the image filling it, no zoom
/// rectangle, no autofocus areas and no orientation.
///
/// ```swift
/// let geometry = frame.geometry
/// if let zoom = geometry.zoomRect {
///     print("showing \(zoom) of the \(geometry.aspect) picture")
/// }
/// ```
public struct LiveViewGeometry: Sendable, Hashable {
    /// The size of the coordinate space every rectangle here is given in: for Nikon bodies the whole picture the
    /// sensor sees, else the image's size.
    public var aspect: Dimensions
    /// Where the image lies within ``aspect``.
    public var imageFrame: LiveViewRect
    /// The part of the whole picture, in ``aspect``'s coordinates, that magnified live view shows; `nil` when the
    /// whole picture is shown or the camera does not say.
    public var zoomRect: LiveViewRect?
    /// How the camera is held, where the camera says so.
    public var orientation: LiveViewOrientation?
    /// The autofocus areas the frame shows, in ``aspect``'s coordinates, where the camera sends them with the frame
    /// (Nikon bodies' live view header); empty otherwise.
    public var afAreas: [FocusPoint]

    /// Creates a geometry.
    public init(
        aspect: Dimensions, imageFrame: LiveViewRect, zoomRect: LiveViewRect? = nil,
        orientation: LiveViewOrientation? = nil, afAreas: [FocusPoint] = []
    ) {
        self.aspect = aspect
        self.imageFrame = imageFrame
        self.zoomRect = zoomRect
        self.orientation = orientation
        self.afAreas = afAreas
    }

    /// The geometry of an image of `size` from a camera that says nothing more: the image is the whole aspect.
    public init(imageSize size: Dimensions) {
        self.init(aspect: size, imageFrame: LiveViewRect(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// Whether the image shows only part of the picture.
    public var isZoomedIn: Bool { zoomRect != nil }
}
