/// Turns the images a camera's live view sends into frames: their size and, unless asked not to, their pixels.
///
/// ``CameraDriverCore`` fetches each live view image through its connection and hands it to the decoder its
/// configuration names; `JPEGLiveViewDecoder` (in ViewfinderJPEG) decodes the JPEG images cameras send.
public protocol LiveViewImageDecoder: Sendable {
    /// The image's size in pixels and, unless `settings` says to skip decoding, its pixels.
    ///
    /// - Throws: ``ViewfinderError/Code/malformedData`` for data that is not an image the decoder reads.
    func decode(_ image: [UInt8], settings: LiveViewSettings) throws -> (pixelSize: Dimensions, pixels: PixelBuffer?)
}
