import CTurboJPEG
import ViewfinderCore

/// A TurboJPEG instance, destroyed with its owner; one user at a time.
///
/// Unchecked `Sendable`: a handle moves between threads only through ``ReusableResources``, which hands it to one
/// caller at a time.
package final class TurboJPEGHandle: @unchecked Sendable {
    /// Whether the instance compresses or decompresses.
    package enum Kind {
        case compressor
        case decompressor
    }

    package let handle: tjhandle
    /// Scratch memory for a luma plane padded as TurboJPEG's planar functions need it.
    package let lumaScratch = ScratchMemory()
    /// Scratch memory for separate chroma planes.
    package let chromaScratch = ScratchMemory()
    /// Scratch memory for chroma planes resampled to 4:2:0.
    package let resampledScratch = ScratchMemory()
    /// Scratch memory for one row of chroma being resampled.
    package let rowScratch = ScratchMemory()
    /// Scratch memory for a reduced copy of an image, for thumbnails.
    package let thumbnailScratch = ScratchMemory()
    /// The compressor's output buffer, from `tjAlloc`, and its size.
    package var output: (base: UnsafeMutablePointer<UInt8>, capacity: Int)?

    package init(_ kind: Kind) throws {
        let made =
            switch kind {
            case .compressor: tjInitCompress()
            case .decompressor: tjInitDecompress()
            }
        guard let made else {
            throw ViewfinderError(
                .notAvailable, "TurboJPEG could not start: \(String(cString: tjGetErrorStr2(nil)))")
        }
        handle = made
    }

    deinit {
        if let output { tjFree(output.base) }
        tjDestroy(handle)
    }

    /// TurboJPEG's message for the last failure on this instance.
    package var errorMessage: String { String(cString: tjGetErrorStr2(handle)) }

    /// Whether the last failure was only a warning, after which the image was still produced.
    package var lastFailureWasWarning: Bool { tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) }

    /// An output buffer of at least `byteCount` bytes, kept for the next compression.
    package func outputBuffer(byteCount: Int) throws -> UnsafeMutablePointer<UInt8> {
        if let output, output.capacity >= byteCount {
            return output.base
        }
        if let output { tjFree(output.base) }
        output = nil
        guard byteCount <= Int(Int32.max), let base = tjAlloc(Int32(byteCount)) else {
            throw ViewfinderError(.invalidArgument, "cannot allocate \(byteCount) bytes for a JPEG image")
        }
        output = (base, byteCount)
        return base
    }
}
