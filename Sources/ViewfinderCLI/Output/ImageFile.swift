import Foundation
import Viewfinder

/// Pictures read from JPEG and PNG files, for `scan --image` and `simulate --live-view-picture`.
enum ImageFile {
    /// The picture in the file at `path`: NV12 (full range) for JPEG, GRAY8 for PNG.
    ///
    /// - Throws: ``CommandFailure`` with exit status 66 for a file that cannot be read and 65 for one that is not a
    ///   whole JPEG or PNG image.
    static func picture(atPath path: String) throws -> PixelBuffer {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read \(path)", exitStatus: ExitStatus.notFound)
        }
        let bytes = Array(data)
        do {
            if PNGDecoder.isPNG(bytes) { return try PNGDecoder().decode(bytes, to: .gray8) }
            guard bytes.starts(with: [0xFF, 0xD8]) else {
                throw ViewfinderError(.malformedData, "not a JPEG or PNG image")
            }
            return try JPEGDecoder().decode(bytes, to: .nv12FullRange)
        } catch let error as ViewfinderError {
            throw CommandFailure("\(path): \(error.message)", exitStatus: ExitStatus.badValue)
        }
    }
}
