import ViewfinderCore

/// One live view datagram from a Lumix: a header of the camera's own, then one whole JPEG.
///
/// The header's layout differs between bodies and is not documented; every client (gphoto2's driver among them)
/// finds the JPEG by its start-of-image marker, as this reader does, and requires its end-of-image marker at the
/// datagram's end, so that a datagram cut short is refused rather than shown half drawn.
package enum LumixLiveViewDatagram {
    /// The JPEG in `datagram`: from its start-of-image marker (`FF D8`) to its end-of-image marker (`FF D9`), which
    /// ends the datagram.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a datagram without a JPEG, or whose JPEG does not end.
    package static func jpeg(in datagram: ArraySlice<UInt8>) throws(ViewfinderError) -> ArraySlice<UInt8> {
        var index = datagram.startIndex
        var start: Int?
        while index + 2 < datagram.endIndex {
            if datagram[index] == 0xFF, datagram[index + 1] == 0xD8, datagram[index + 2] == 0xFF {
                start = index
                break
            }
            index += 1
        }
        guard let start else {
            throw ViewfinderError(
                .malformedData, "a live view datagram of \(datagram.count) bytes from the Lumix holds no JPEG")
        }
        let end = datagram.endIndex
        guard end - start >= 4, datagram[end - 2] == 0xFF, datagram[end - 1] == 0xD9 else {
            throw ViewfinderError(
                .malformedData,
                "a live view datagram of \(datagram.count) bytes from the Lumix was cut short: its JPEG has no end "
                    + "of image")
        }
        return datagram[start..<end]
    }
}
