import Testing
import ViewfinderCore

@testable import ViewfinderPTP

/// Canon's EOS data as the camera sends it: GetEvent records, GetViewFinderData blobs, and what property codes mean.
@Suite struct CanonEOSCodecTests {
    static let events: [PTPCanonEOSEvent] = [
        .propertyChanged(.canonEOSISOSpeed, value: [0x48, 0, 0, 0]),
        .propertyChanged(PTPDevicePropertyCode(rawValue: 0xD115), value: Array("Viewfinder".utf8) + [0]),
        .allowedValuesChanged(.canonEOSAperture, values: [0x28, 0x2B, 0x2D, 0x30]),
        .allowedValuesChanged(.canonEOSShutterSpeed, values: []),
        .objectAdded(
            handle: 0x9000_0001, storageID: 0x0001_0001, format: .exifJPEG, size: 123_456, parent: 0x9000_0000,
            name: "IMG_0001.JPG"),
        .objectTransferRequested(handle: 0x9000_0002, format: .exifJPEG, size: 654_321, name: "IMG_0002.JPG"),
        .objectRemoved(handle: 0x9000_0001),
        .cameraStatus(1),
        .other(type: 0xC1A5, payload: [1, 2, 3]),
    ]

    @Test func eventsRoundTripThroughTheirRecords() throws {
        let data = PTPCanonEOSEvent.encode(Self.events)
        #expect(try PTPCanonEOSEvent.decode(data) == Self.events)
        // The data ends with the {8, 0} record.
        #expect(data.suffix(8) == [8, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func aRecordLaysOutItsFieldsWhereCamerasPutThem() throws {
        let data = PTPCanonEOSEvent.encode([
            .objectAdded(handle: 7, storageID: 0x0001_0001, format: .exifJPEG, size: 99, parent: 3, name: "A.JPG")
        ])
        // [size][type] then handle, storage, format at 0x08, size at 0x14, parent at 0x18, the name at 0x20.
        #expect(data.littleEndianUInt32(at: 0) == UInt32(8 + 0x20 + 6))
        #expect(data.littleEndianUInt32(at: 4) == 0xC181)
        #expect(data.littleEndianUInt32(at: 8 + 0x08) == UInt32(PTPObjectFormatCode.exifJPEG.rawValue))
        #expect(data.littleEndianUInt32(at: 8 + 0x14) == 99)
        #expect(data.littleEndianUInt32(at: 8 + 0x18) == 3)
        #expect(Array(data[(8 + 0x20)..<(8 + 0x20 + 6)]) == Array("A.JPG".utf8) + [0])
    }

    @Test func decodingStopsAtTheEndRecordAndKeepsWhatItDoesNotRead() throws {
        var data = PTPCanonEOSEvent.encode([.cameraStatus(0)])
        data += [0xFF, 0xFF, 0xFF, 0xFF]  // after the end record: never read
        #expect(try PTPCanonEOSEvent.decode(data) == [.cameraStatus(0)])
        // Without an end record the data ends where the records do.
        #expect(try PTPCanonEOSEvent.decode(Array(data.prefix(12))) == [.cameraStatus(0)])
        #expect(try PTPCanonEOSEvent.decode([]) == [])

        // An allowed-values list in a form other than the enumeration is kept, not read as values.
        var writer = PTPDataWriter()
        for word: UInt32 in [20, 0xC18A, 0xD101, 1, 0x48] { writer.append(word) }
        #expect(
            try PTPCanonEOSEvent.decode(writer.bytes) == [
                .other(type: 0xC18A, payload: Array(writer.bytes[8...]))
            ])
    }

    @Test(
        arguments: [
            ("a size past the data", [UInt32(0x100), 0xC18B, 0], "claims 256 bytes"),
            ("a size below the header", [4, 0xC18B], "claims 4 bytes"),
            ("a status without its word", [8, 0xC18B], "camera status record at byte 0 has 0 bytes"),
            ("a file record cut short", [16, 0xC181, 1, 2], "new file record"),
            ("more values than the record holds", [24, 0xC18A, 0xD101, 3, 4, 0x48], "claims 4 values in 4 bytes"),
        ] as [(String, [UInt32], String)])
    func malformedRecordsAreClearErrors(_ name: String, _ words: [UInt32], _ message: String) {
        var writer = PTPDataWriter()
        for word in words { writer.append(word) }
        let error = #expect(throws: ViewfinderError.self, "\(name)") { try PTPCanonEOSEvent.decode(writer.bytes) }
        #expect(error?.code == .malformedData, "\(name)")
        #expect(error?.message.contains(message) == true, "\(name): \(String(describing: error))")
    }

    @Test func theLiveViewImageIsFoundAmongTheBlobs() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9]
        var writer = PTPDataWriter()
        writer.append(UInt32(8 + 4))
        writer.append(UInt32(3))  // a histogram first
        writer.append(bytes: [9, 9, 9, 9])
        writer.append(bytes: PTPCanonEOSLiveViewFrame.encode(jpeg: jpeg))
        let frame = try PTPCanonEOSLiveViewFrame(data: writer.bytes)
        #expect(Array(frame.jpeg) == jpeg)
        #expect(frame.jpegRange == 20..<29)

        let tooLong = #expect(throws: ViewfinderError.self) {
            try PTPCanonEOSLiveViewFrame(data: Array(writer.bytes.dropLast()))
        }
        #expect(tooLong?.message.contains("claims 17 bytes") == true, "\(String(describing: tooLong))")
        let none = #expect(throws: ViewfinderError.self) {
            try PTPCanonEOSLiveViewFrame(data: Array(writer.bytes.prefix(12)))
        }
        #expect(none?.message.contains("holds no JPEG image") == true, "\(String(describing: none))")
    }

    @Test func eighthsOfAStopAreTheThirdsAndHalvesTheyStandFor() {
        typealias Values = CanonEOSPropertyValues
        #expect(Values.stops(eighths: 0) == .zero)
        #expect(Values.stops(eighths: 3) == ExposureStops(wholeStops: 0, fraction: .oneThird))
        #expect(Values.stops(eighths: 4) == ExposureStops(wholeStops: 0, fraction: .oneHalf))
        #expect(Values.stops(eighths: 13) == ExposureStops(wholeStops: 1, fraction: .twoThirds))
        #expect(Values.stops(eighths: -3) == ExposureStops(wholeStops: 0, fraction: .oneThird, isNegative: true))
        #expect(Values.stops(eighths: -5) == ExposureStops(wholeStops: 0, fraction: .twoThirds, isNegative: true))
        #expect(Values.stops(eighths: -16) == ExposureStops(wholeStops: -2))
        for eighths in [-21, -16, -13, -12, -11, -8, -5, -4, -3, 0, 3, 4, 5, 8, 11, 12, 13, 80] {
            #expect(Values.eighths(Values.stops(eighths: eighths)) == eighths, "\(eighths)")
        }
        // Sixths have no code.
        #expect(Values.eighths(ExposureStops(sixths: 1)) == nil)

        #expect(Values.iso(0x48).commonValue == .iso100)
        #expect(Values.iso(0x4B).commonValue == ISOValue(125))
        #expect(Values.iso(0x68).commonValue == ISOValue(1600))
        #expect(Values.iso(0).commonValue == .automatic)
        #expect(Values.isoCode(ISOValue(125)!) == 0x4B)
        #expect(Values.isoCode(.automatic) == 0)
        #expect(Values.aperture(0x30).localizedDisplayValue == "f/5.6")
        #expect(Values.aperture(0x2D).localizedDisplayValue == "f/5")
        #expect(Values.shutterSpeed(0x70).localizedDisplayValue == "1/125")
        #expect(Values.shutterSpeed(0x10).localizedDisplayValue == "30\"")
        #expect(Values.shutterSpeed(0x0C).commonValue == .bulb)
        #expect(Values.exposureCompensation(0xFB).commonValue == ExposureCompensationValue(thousandthsOfAStop: -667))
        #expect(Values.exposureCompensation(0x08).commonValue == ExposureCompensationValue(thousandthsOfAStop: 1000))
        #expect(Values.batteryLevel(4).commonValue == .percent(75))
        #expect(Values.exposureMode(22).localizedDisplayValue == "Scene Intelligent Auto")
        #expect(Values.whiteBalance(0x77).localizedDisplayValue == "Unknown (0x0077)")
    }

    /// Codes outside libgphoto2's tables mean nothing Viewfinder can vouch for: a body in a scene mode reports its
    /// aperture as 0xB0, which is automatic, not f/1448; other codes outside the range, and modes no table names, are
    /// unknown and never offered as settable.
    @Test func codesOutsideTheTablesAreUnknownAndNotSettable() {
        typealias Values = CanonEOSPropertyValues
        #expect(Values.aperture(0xB0).commonValue == .automatic)
        #expect(Values.aperture(0x70).commonValue != nil && !Values.aperture(0x70).isUnknown)
        for code: Int64 in [0x07, 0x71, 0x98, 0xAF, 0xB1, 0x1CE] {
            #expect(Values.aperture(code).isUnknown, "aperture \(code)")
        }
        #expect(Values.shutterSpeed(0xA8).localizedDisplayValue == "1/16000")
        #expect(Values.shutterSpeed(0xA9).isUnknown && Values.shutterSpeed(0x0F).isUnknown)
        #expect(Values.iso(1).commonValue == .automatic)
        #expect(Values.iso(0xB0).commonValue == ISOValue(819_200))
        #expect(Values.iso(0xB8).isUnknown && Values.iso(0x27).isUnknown)
        #expect(Values.focusMode(0x1CE).localizedDisplayValue == "Unknown (0x01CE)")
        #expect(Values.driveMode(0x13).localizedDisplayValue == "Single Silent")
        #expect(Values.driveMode(0x13).isUnknown == false && Values.driveMode(0x17).isUnknown)
        let offered = CameraPropertySettableValues([0x28, 0x30, 0x98, 0xB0].map(Values.aperture))
        #expect(offered.map(\.rawValue) == [.integer(0x28), .integer(0x30), .integer(0xB0)])
        let modes = CameraPropertySettableValues([3, 0x1CE].map(Values.focusMode))
        #expect(modes.map(\.localizedDisplayValue) == ["MF"])
    }

    /// Metering modes and where pictures go, in libgphoto2's codes; others are unknown and not offered.
    @Test func meteringModesAndDestinationsHaveLibgphoto2sMeanings() {
        typealias Values = CanonEOSPropertyValues
        #expect(Values.meteringMode(1).commonValue == .spot)
        #expect(Values.meteringMode(3).commonValue == .evaluative)
        #expect(Values.meteringMode(4).commonValue == .partial)
        #expect(Values.meteringMode(5).commonValue == .centerWeighted)
        #expect(Values.meteringMode(7).localizedDisplayValue == "Multi-Spot" && !Values.meteringMode(7).isUnknown)
        #expect(Values.meteringMode(8).isUnknown)
        #expect(Values.imageDestination(2).commonValue == .camera)
        #expect(Values.imageDestination(4).commonValue == .connectedHost)
        #expect(Values.imageDestination(1).isUnknown)
        let destinations = CameraPropertySettableValues([2, 4, 9].map(Values.imageDestination))
        #expect(destinations.compactMap(\.commonValue) == [.camera, .connectedHost])
        #expect(destinations.count == 2)
    }

    /// Picture styles in libgphoto2's codes, the user's by name; mirror lockup and the depth-of-field preview 0 or 1;
    /// other codes are unknown and not offered.
    @Test func pictureStylesAndSwitchesHaveLibgphoto2sMeanings() {
        typealias Values = CanonEOSPropertyValues
        #expect(Values.colorTone(0x81).commonValue == .standard)
        #expect(Values.colorTone(0x86).commonValue == .monochrome)
        #expect(Values.colorTone(0x88).commonValue == .fineDetail)
        #expect(Values.colorTone(0x22).localizedDisplayValue == "User Defined 2" && !Values.colorTone(0x22).isUnknown)
        #expect(Values.colorTone(0x89).isUnknown)
        #expect(Values.onOff(0).commonValue == .off)
        #expect(Values.onOff(1).commonValue == .on)
        #expect(Values.onOff(2).isUnknown)
        let styles = CameraPropertySettableValues([0x81, 0x21, 0x40].map(Values.colorTone))
        #expect(styles.map(\.localizedDisplayValue) == ["Standard", "User Defined 1"])
    }

    /// EOS ImageFormat in libgphoto2's condensed values: its own examples, packed back as it packs them; a record
    /// of formats out of form is refused.
    @Test func imageFormatsCondenseAsLibgphoto2s() throws {
        func words(_ values: [UInt32]) -> [UInt8] {
            values.flatMap { value in withUnsafeBytes(of: value.littleEndian, Array.init) }
        }
        // cRAW with a coarse S1 JPEG, and an mRAW alone, as libgphoto2's comments give them.
        let craw = words([2, 0x10, 6, 0, 3, 0x10, 1, 0xE, 2])
        let mraw = words([1, 0x10, 6, 1, 4])
        var offset = 0
        #expect(CanonEOSImageFormat.condense(craw + mraw, at: &offset) == 0x0BD2 && offset == 36)
        #expect(CanonEOSImageFormat.condense(craw + mraw, at: &offset) == 0x1C00 && offset == 56)
        #expect(CanonEOSImageFormat.pack(0x0BD2) == craw)
        #expect(CanonEOSImageFormat.pack(0x1C00) == mraw)
        offset = 0
        #expect(CanonEOSImageFormat.condense(words([3, 0x10, 1, 0, 3]), at: &offset) == nil)
        #expect(CanonEOSImageFormat.condense(words([1, 0x14, 1, 0, 3]), at: &offset) == nil)
        #expect(CanonEOSImageFormat.condense(words([2, 0x10, 1, 0, 3]), at: &offset) == nil && offset == 0)

        let allowed = PTPCanonEOSEvent.allowedValuesChanged(.canonEOSImageFormat, values: [0x0300, 0x0C03])
        let data = PTPCanonEOSEvent.encode([allowed])
        #expect(data.count == 8 + 12 + 20 + 36 + 8)
        #expect(try PTPCanonEOSEvent.decode(data) == [allowed])
        var short = data
        short.replaceSubrange(16..<20, with: words([3]))
        #expect(throws: ViewfinderError.self) { try PTPCanonEOSEvent.decode(short) }
        var bent = data
        bent.replaceSubrange(24..<28, with: words([0x11]))
        #expect(throws: ViewfinderError.self) { try PTPCanonEOSEvent.decode(bent) }

        typealias Values = CanonEOSPropertyValues
        #expect(Values.imageQuality(0x0300).commonValue == .jpegFine)
        #expect(Values.imageQuality(0x0C00).commonValue == .raw)
        #expect(Values.imageQuality(0x0C02).commonValue == .rawAndJPEGNormal)
        #expect(Values.imageQuality(0x2300).localizedDisplayValue == "Small Fine JPEG")
        #expect(Values.imageQuality(0x2300).commonValue == nil && !Values.imageQuality(0x2300).isUnknown)
        #expect(Values.imageQuality(0x0400).isUnknown)
        let offered = CameraPropertySettableValues([0x0300, 0x0400, 0x1300].map(Values.imageQuality))
        #expect(offered.map(\.localizedDisplayValue) == ["JPEG Fine", "Medium Fine JPEG"])
    }

    /// EOS LensName arrives as a NUL-terminated string in a property record; an empty name is a body without a lens.
    @Test func lensNameIsTheRecordsText() throws {
        let name = Array("EF-S18-55mm f/3.5-5.6 IS STM".utf8) + [0]
        let events = try PTPCanonEOSEvent.decode(
            PTPCanonEOSEvent.encode([.propertyChanged(.canonEOSLensName, value: name)]))
        #expect(events == [.propertyChanged(.canonEOSLensName, value: name)])
        let lens = CanonEOSPropertyValues.lensName("EF-S18-55mm f/3.5-5.6 IS STM")
        #expect(lens?.commonValue?.name == "EF-S18-55mm f/3.5-5.6 IS STM")
        #expect(lens?.rawValue == .string("EF-S18-55mm f/3.5-5.6 IS STM"))
        #expect(CanonEOSPropertyValues.lensName("") == nil)
        #expect(CanonEOSPropertyValues.lensName("  ") == nil)
    }
}
