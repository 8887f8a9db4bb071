import CLibYUV
import ViewfinderJPEG

extension RGB32Order {
    /// Reorders `source` into `destination`, a B, G, R, A image of the same size; `opaqueRow` is a scratch row at
    /// least as wide as the image, for making a padding byte an opaque alpha.
    func shuffle(_ source: ImagePlanes, intoBGRA destination: ImagePlanes, opaqueRow: PlaneRef) {
        let (b, g, r, a) = offsets
        // libyuv's mask covers four pixels at a time; a tuple keeps it off the heap.
        var mask = (b, g, r, a, b + 4, g + 4, r + 4, a + 4, b + 8, g + 8, r + 8, a + 8, b + 12, g + 12, r + 12, a + 12)
        withUnsafeBytes(of: &mask) { mask in
            _ = ARGBShuffle(
                source.y.base, source.y.stride, destination.y.base, destination.y.stride,
                mask.baseAddress?.assumingMemoryBound(to: UInt8.self), source.width, source.height)
        }
        guard isPadded else { return }
        // A row stride of zero reads the one row of 255s for every row of the image.
        SetPlane(opaqueRow.base, opaqueRow.stride, source.width, 1, 255)
        _ = ARGBCopyYToAlpha(opaqueRow.base, 0, destination.y.base, destination.y.stride, source.width, source.height)
    }
}
