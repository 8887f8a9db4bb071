import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

/// Fuzzes the PTP/IP codec the client relies on: packets, every dataset, strings, typed values, live view frames, the
/// framing of a packet stream, and Canon's event records.
///
/// The first input byte picks the decoder, the rest is its input. Whatever decodes must encode again and decode to an
/// equal value; anything else is a bug, and so is any crash.
@main enum PTPCodecFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    /// The decoders, in the order of the selector byte.
    enum Decoder: UInt8, CaseIterable {
        case packet, deviceInfo, propertyDescription, storageInfo, objectInfo, strings, value, liveViewFrame, stream
        case canonEOSEvents, canonEOSLiveViewFrame
    }

    static func fuzz(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let bytes = Array(input.dropFirst())
        switch Decoder.allCases[Int(selector) % Decoder.allCases.count] {
        case .packet:
            roundTrip(bytes, PTPIPPacket.decode(_:)) { try $0.encoded() }
        case .deviceInfo:
            roundTrip(bytes, PTPDeviceInfo.init(decoding:)) { try $0.encoded() }
        case .propertyDescription:
            roundTrip(bytes, PTPDevicePropertyDescription.init(decoding:)) { description in
                // A camera's form is what a client checks values against before it sets them.
                for value in [description.factoryDefaultValue, description.currentValue] {
                    _ = description.form.allows(value)
                }
                return try description.encoded()
            }
        case .storageInfo:
            roundTrip(bytes, PTPStorageInfo.init(decoding:)) { try $0.encoded() }
        case .objectInfo:
            roundTrip(bytes, PTPObjectInfo.init(decoding:)) { try $0.encoded() }
        case .strings:
            strings(bytes)
        case .value:
            value(bytes)
        case .liveViewFrame:
            liveViewFrame(bytes)
        case .stream:
            PacketStreamFuzzer.read(bytes)
        case .canonEOSEvents:
            roundTrip(bytes, PTPCanonEOSEvent.decode(_:), PTPCanonEOSEvent.encode(_:))
        case .canonEOSLiveViewFrame:
            canonEOSLiveViewFrame(bytes)
        }
    }

    /// Checks that what `decode` accepts, `encode` writes back in a form `decode` reads as the same value, and that
    /// `decode` refuses everything else as malformed data.
    static func roundTrip<Value: Equatable>(
        _ bytes: [UInt8], _ decode: ([UInt8]) throws -> Value, _ encode: (Value) throws -> [UInt8]
    ) {
        let value: Value
        do {
            value = try decode(bytes)
        } catch {
            let code = (error as? ViewfinderError)?.code
            precondition(code == .malformedData, "a decoder failed with something other than malformed data: \(error)")
            return
        }
        do {
            let again = try decode(try encode(value))
            precondition(again == value, "\(value) came back as \(again)")
        } catch {
            preconditionFailure("\(value) decoded but does not round-trip: \(error)")
        }
    }

    /// Reads strings until the bytes run out, checking each one round-trips.
    static func strings(_ bytes: [UInt8]) {
        var reader = PTPDataReader(bytes, reading: "strings")
        while let string = try? reader.readString() {
            var writer = PTPDataWriter()
            do {
                try writer.append(string: string)
                var back = PTPDataReader(writer.bytes, reading: "a string")
                let again = try back.readString()
                precondition(again == string && back.isAtEnd, "\"\(string)\" does not round-trip")
            } catch {
                preconditionFailure("\"\(string)\" decoded but does not encode: \(error.message)")
            }
        }
    }

    /// Reads one value of the type the first two bytes give, checking it round-trips.
    static func value(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let type = PTPDataType(rawValue: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        roundTrip(Array(bytes.dropFirst(2))) { data in
            var reader = PTPDataReader(data, reading: "a \(type) value")
            let value = try reader.readValue(of: type)
            precondition(value.dataType == type, "a \(type) value decoded as \(value.dataType)")
            return value
        } _: { value in
            var writer = PTPDataWriter()
            try writer.append(value: value)
            return writer.bytes
        }
    }

    /// Finds the JPEG image in a live view frame and checks its bounds and markers.
    static func liveViewFrame(_ bytes: [UInt8]) {
        guard let frame = try? PTPNikonLiveViewFrame(data: bytes) else { return }
        let range = frame.jpegRange
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count && range.count >= 4)
        precondition(frame.jpeg.starts(with: [0xFF, 0xD8]) && frame.jpeg.suffix(2).elementsEqual([0xFF, 0xD9]))
        precondition(frame.header.count == range.lowerBound)
    }

    /// Finds the JPEG image among the blobs of a Canon live view frame and checks it lies within the data.
    static func canonEOSLiveViewFrame(_ bytes: [UInt8]) {
        guard let frame = try? PTPCanonEOSLiveViewFrame(data: bytes) else { return }
        let range = frame.jpegRange
        precondition(range.lowerBound >= 8 && range.upperBound <= bytes.count)
        let again = try? PTPCanonEOSLiveViewFrame(data: PTPCanonEOSLiveViewFrame.encode(jpeg: frame.jpeg))
        precondition(again?.jpeg.elementsEqual(frame.jpeg) == true, "a Canon live view image does not round-trip")
    }
}
