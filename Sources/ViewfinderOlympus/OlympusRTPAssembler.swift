import ViewfinderCore

/// Reassembles the JPEG frames of an Olympus or OM System camera's live view from its RTP packets.
///
/// A frame is the payloads of consecutive packets, from one whose payload starts a JPEG (`FFD8`) to the one with the
/// marker bit; the first packet's header extension may carry the orientation (function 4). A sequence gap drops the
/// frame under way, as does a frame that does not end the JPEG (`FFD9`) or grows past the bound: a frame missing a
/// packet is never shown. Packets that are not RTP version 2, or whose padding, contributing sources or extension
/// run past their end, are refused.
package struct OlympusRTPAssembler: Sendable {
    /// A whole frame.
    package struct Frame: Sendable, Equatable {
        /// The JPEG.
        package var jpeg: [UInt8]
        /// The EXIF orientation (1, 3, 6 or 8) the camera sent with it, if any.
        package var orientation: UInt8?
    }

    /// The longest frame assembled.
    package let maximumFrameLength: Int
    /// How many frames were dropped for a gap, a bound or a JPEG out of form.
    package private(set) var droppedFrames = 0

    private var frame: [UInt8] = []
    /// How long the last whole frame was: the room a new frame starts with, so that it is not grown packet by packet.
    private var lastLength = 0
    private var orientation: UInt8?
    /// Whether a frame is under way with no packet missing.
    private var assembling = false
    private var previousSequence: UInt16?

    /// An assembler of frames up to `maximumFrameLength` bytes.
    package init(maximumFrameLength: Int = 4 << 20) {
        self.maximumFrameLength = maximumFrameLength
    }

    /// Takes one packet; returns the frame it completes, when it ends one that arrived whole.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a packet that is not RTP or runs past its end.
    package mutating func take(_ packet: ArraySlice<UInt8>) throws(ViewfinderError) -> Frame? {
        let parsed = try Self.parse(packet)
        if let previousSequence, parsed.sequence != previousSequence &+ 1, assembling {
            drop()
        }
        previousSequence = parsed.sequence
        let payload = packet[parsed.payload]
        if payload.starts(with: [0xFF, 0xD8]) {
            if assembling { drop() }
            frame = []
            frame.reserveCapacity(min(lastLength + lastLength / 4, maximumFrameLength))
            orientation = parsed.orientation
            assembling = true
        }
        if assembling {
            if frame.count + payload.count > maximumFrameLength {
                drop()
            } else {
                frame += payload
            }
        }
        guard parsed.marker, assembling else { return nil }
        assembling = false
        defer { frame = [] }
        guard frame.count >= 4, frame.suffix(2).elementsEqual([0xFF, 0xD9]) else {
            droppedFrames += 1
            return nil
        }
        lastLength = frame.count
        return Frame(jpeg: frame, orientation: orientation)
    }

    private mutating func drop() {
        droppedFrames += 1
        assembling = false
        frame = []
    }

    /// A packet's marker bit, sequence number, the orientation in its extension and where its payload is; read in
    /// place, indices counted from the packet's start.
    private static func parse(_ packet: ArraySlice<UInt8>) throws(ViewfinderError) -> (
        marker: Bool, sequence: UInt16, orientation: UInt8?, payload: Range<Int>
    ) {
        let base = packet.startIndex
        func byte(_ offset: Int) -> UInt8 { packet[base + offset] }
        func malformed(_ what: String) -> ViewfinderError {
            ViewfinderError(.malformedData, "a live view packet from the Olympus \(what)")
        }
        guard packet.count >= 12 else { throw malformed("is \(packet.count) bytes, shorter than an RTP header") }
        guard byte(0) >> 6 == 2 else { throw malformed("is not RTP version 2") }
        var end = packet.count
        if byte(0) & 0x20 != 0 {
            let padding = Int(byte(end - 1))
            guard padding >= 1, padding <= end - 12 else { throw malformed("has more padding than bytes") }
            end -= padding
        }
        var start = 12 + 4 * Int(byte(0) & 0x0F)
        guard start <= end else { throw malformed("lists more contributing sources than it holds") }
        var orientation: UInt8?
        if byte(0) & 0x10 != 0 {
            guard start + 4 <= end else { throw malformed("has a header extension cut short") }
            let length = 4 * (Int(byte(start + 2)) << 8 | Int(byte(start + 3)))
            let elements = start + 4
            guard elements + length <= end else { throw malformed("has a header extension longer than itself") }
            orientation = Self.orientation(in: packet[(base + elements)..<(base + elements + length)])
            start = elements + length
        }
        let sequence = UInt16(byte(2)) << 8 | UInt16(byte(3))
        return (byte(1) & 0x80 != 0, sequence, orientation, (base + start)..<(base + end))
    }

    /// The orientation in the extension's elements (`[function u16][words u16][data]`), function 4, when given.
    private static func orientation(in elements: ArraySlice<UInt8>) -> UInt8? {
        var index = elements.startIndex
        while index + 4 <= elements.endIndex {
            let function = Int(elements[index]) << 8 | Int(elements[index + 1])
            let length = 4 * (Int(elements[index + 2]) << 8 | Int(elements[index + 3]))
            let data = index + 4
            guard data + length <= elements.endIndex else { return nil }
            if function == 4, length >= 4, [1, 3, 6, 8].contains(elements[data + length - 1]) {
                return elements[data + length - 1]
            }
            index = data + length
        }
        return nil
    }
}
