import Testing
import ViewfinderCore
import ViewfinderSimulator

@testable import ViewfinderPTP

/// Sony's datasets and value codes, read from a real α7S III's bytes where there are some.
@Suite struct SonyCodecTests {
    /// The data phase of the trace's transaction with `operation`.
    static func traced(_ operation: UInt16) throws -> [UInt8] {
        let recording = try ReplayHarness.recording("sony-a7sm3-libgphoto2-cameras.log")
        return try #require(recording.transactions.first { $0.operation.rawValue == operation }?.dataIn)
    }

    /// The α7S III sent the two-list layout to a client that asked for protocol 200: 320 records, 250 of them with
    /// a second list, 35 of those different from the first (a greyed-out property lists nothing to set).
    @Test func theA7SIIIsAnswerIsReadInBothListsAndWrittenBackByteForByte() throws {
        let data = try Self.traced(0x9209)
        let records = try PTPSonyProperty.decodeAll(data)
        #expect(records.count == 320)
        #expect(records.filter { $0.reportableValues != nil }.count == 250)
        #expect(
            records.filter {
                guard case .enumeration(let first) = $0.form else { return false }
                return $0.reportableValues.map { $0 != first } ?? false
            }.count == 35)
        let iso = try #require(records.first { $0.code == .sonyISO })
        #expect(iso.currentValue == .uint32(0xFF_FFFF))
        #expect(iso.dataType == .uint32 && iso.getSet == 1 && iso.isEnabled == 1)
        let mode = try #require(records.first { $0.code == .exposureProgramMode })
        #expect(mode.isEnabled == 2)
        #expect(mode.form == .enumeration([]))
        #expect(mode.reportableValues?.count == 13)
        let battery = try #require(records.first { $0.code == .sonyBatteryLevel })
        #expect(battery.currentValue == .int8(0x47))
        #expect(battery.form == .range(minimum: .int8(-1), maximum: .int8(100), step: .int8(1)))
        // Nothing is lost or added on the way back: the camera's own bytes come out.
        #expect(try PTPSonyProperty.encodeAll(records) == data)
    }

    @Test func theOneListLayoutRoundTrips() throws {
        let records = [
            PTPSonyProperty(
                code: .sonyISO, dataType: .uint32, defaultValue: .uint32(0), currentValue: .uint32(100),
                form: .enumeration([.uint32(0xFF_FFFF), .uint32(100), .uint32(200)])),
            PTPSonyProperty(
                code: .sonyObjectInMemory, dataType: .uint16, getSet: 0, defaultValue: .uint16(0),
                currentValue: .uint16(0x8001),
                form: .range(minimum: .uint16(0), maximum: .uint16(.max), step: .uint16(1))),
            PTPSonyProperty(
                code: .fNumber, dataType: .uint16, isEnabled: 2, defaultValue: .uint16(0), currentValue: .uint16(560),
                form: .enumeration([])),
            PTPSonyProperty(
                code: PTPDevicePropertyCode(rawValue: 0xD278), dataType: .string, defaultValue: .string(""),
                currentValue: .string("ILCE"), form: .none),
        ]
        #expect(try PTPSonyProperty.decodeAll(try PTPSonyProperty.encodeAll(records)) == records)
    }

    /// A record that cannot be read ends the list, keeping those before it; an answer whose first record cannot be
    /// read is malformed, and a count that claims more than the data holds allocates nothing.
    @Test func aRecordThatCannotBeReadEndsTheList() throws {
        let data = try Self.traced(0x9209)
        let cut = try PTPSonyProperty.decodeAll(Array(data.prefix(5000)))
        #expect(cut.count > 10 && cut.count < 320)
        #expect(cut == Array(try PTPSonyProperty.decodeAll(data).prefix(cut.count)))

        // ISO with an enumeration that claims 65535 values of four bytes, in 20 bytes.
        var claim: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 0x1E, 0xD2, 0x06, 0x00, 1, 1]
        claim += [0, 0, 0, 0, 0x64, 0, 0, 0, 2, 0xFF, 0xFF, 0x64, 0, 0, 0]
        let error = #expect(throws: ViewfinderError.self) { try PTPSonyProperty.decodeAll(claim) }
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("claims 65535 values") == true, "\(String(describing: error))")
        #expect(throws: ViewfinderError.self) { try PTPSonyProperty.decodeAll([1, 0, 0]) }
        // A form Sony does not use.
        let strange: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 0x07, 0x50, 0x04, 0x00, 1, 1, 0, 0, 0x30, 2, 9]
        #expect(throws: ViewfinderError.self) { try PTPSonyProperty.decodeAll(strange) }
    }

    @Test func theExtendedDeviceInfoGivesTheProtocolAndTheCodes() throws {
        let data = try Self.traced(0x9202)
        let info = try PTPSonyExtendedDeviceInfo(decoding: data)
        #expect(info.version == 300 && info.setsValuesDirectly)
        #expect(info.properties.count == 320 && info.controls.count == 47)
        #expect(info.controls.contains(PTPDevicePropertyCode.sonyHalfPress.rawValue))
        // 0xF002 is neither a property, an operation nor an event.
        #expect(info.controls.contains(0xF002))
        let codes = info.codes
        #expect(!codes.properties.contains(0xF002) && !codes.operations.contains(0xF002))
        #expect(codes.properties.contains(PTPDevicePropertyCode.sonyMovieButton.rawValue))
        #expect(info.encoded() == data)
        let older = PTPSonyExtendedDeviceInfo(version: 200, properties: [0x5007], controls: [])
        #expect(!older.setsValuesDirectly)
        #expect(try PTPSonyExtendedDeviceInfo(decoding: older.encoded()) == older)
        // A body that sends one list only.
        #expect(try PTPSonyExtendedDeviceInfo(decoding: [0xC8, 0, 1, 0, 0, 0, 0x07, 0x50]).controls.isEmpty)
        #expect(throws: ViewfinderError.self) { try PTPSonyExtendedDeviceInfo(decoding: [0xC8, 0, 0xFF, 0xFF, 0, 0]) }
    }

    @Test func liveViewFramesAreFoundBehindTheHeader() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9]
        let frame = PTPSonyLiveViewFrame.encode(jpeg: jpeg)
        #expect(Array(frame[try PTPSonyLiveViewFrame.jpegRange(in: frame)]) == jpeg)
        // A blob before the image that holds FF D8 itself, with the offset pointing past it (gphoto2 #389).
        var blob: [UInt8] = [16, 0, 0, 0, UInt8(jpeg.count), 0, 0, 0, 0xFF, 0xD8, 0xFF, 0, 0, 0, 0, 0]
        blob += jpeg
        #expect(try PTPSonyLiveViewFrame.jpegRange(in: blob) == 16..<(16 + jpeg.count))
        // An offset that points nowhere: the image is the first JPEG after the header.
        var lost: [UInt8] = [0xEE, 0xEE, 0, 0, 0, 0, 0, 0, 0, 0]
        lost += jpeg
        #expect(try PTPSonyLiveViewFrame.jpegRange(in: lost) == 10..<(10 + jpeg.count))
        let none = #expect(throws: ViewfinderError.self) {
            try PTPSonyLiveViewFrame.jpegRange(in: [8, 0, 0, 0, 2, 0, 0, 0, 1, 2])
        }
        #expect(none?.code == .malformedData)
    }

    @Test func isoCodesCarryAutomaticNoiseReductionAndTheExtendedRange() {
        #expect(SonyPropertyValues.iso(0xFF_FFFF).commonValue == .automatic)
        #expect(SonyPropertyValues.iso(0xFF_FFFF).localizedDisplayValue == "Auto ISO")
        #expect(SonyPropertyValues.iso(0x1000_0032).commonValue == .iso50)
        let reduced = SonyPropertyValues.iso(0x0100_0064)
        #expect(reduced.commonValue == .iso100)
        #expect(reduced.localizedDisplayValue == "ISO 100 Multi Frame NR")
        #expect(SonyPropertyValues.iso(0x0200_0064).localizedDisplayValue == "ISO 100 Multi Frame NR High")
        #expect(SonyPropertyValues.iso(0x0500_0064).isUnknown)
        #expect(SonyPropertyValues.iso(0).isUnknown)
        #expect(SonyPropertyValues.isoCode(.automatic) == 0xFF_FFFF)
        #expect(SonyPropertyValues.isoCode(.iso800) == 800)
    }

    @Test func shutterSpeedsAreFractionsAndBulbIsZero() {
        #expect(SonyPropertyValues.shutterSpeed(0x012C_000A).localizedDisplayValue == "30\"")
        #expect(SonyPropertyValues.shutterSpeed(0x0001_1F40).localizedDisplayValue == "1/8000")
        #expect(SonyPropertyValues.shutterSpeed(0x0001_00FA).commonValue == ShutterSpeedValue(seconds: 1.0 / 250))
        #expect(SonyPropertyValues.shutterSpeed(0).commonValue == .bulb)
        #expect(SonyPropertyValues.shutterSpeed(0x0001_0000).isUnknown)
        #expect(SonyPropertyValues.shutterSpeed(0xFFFF_0001).isUnknown)
        for code: Int64 in [0x012C_000A, 0x0004_000A, 0x0001_0003, 0x0001_00FA, 0x0001_1F40] {
            let speed = SonyPropertyValues.shutterSpeed(code).commonValue
            let again = speed.flatMap(SonyPropertyValues.shutterCode).map(SonyPropertyValues.shutterSpeed)
            #expect(again?.commonValue == speed, "\(String(code, radix: 16))")
        }
        #expect(SonyPropertyValues.shutterCode(.bulb) == 0)
        // A notch up is a shorter exposure; bulb is the longest of all.
        let places = [0, 0x012C_000A, 0x0001_00FA, 0x0001_1F40].compactMap {
            SonyPropertyValues.notchPlace(of: .sonyShutterSpeed, $0, among: [])
        }
        #expect(places.count == 4 && places == places.sorted())
    }

    @Test func apertureCompensationAndModesReadTheirTables() {
        #expect(SonyPropertyValues.aperture(450).localizedDisplayValue == "f/4.5")
        #expect(SonyPropertyValues.aperture(0xFFFF).isUnknown && SonyPropertyValues.aperture(0).isUnknown)
        #expect(SonyPropertyValues.exposureCompensation(300).commonValue?.stops == ExposureStops(sixths: 2))
        #expect(SonyPropertyValues.exposureCompensation(-1700).commonValue?.stops == ExposureStops(sixths: -10))
        #expect(SonyPropertyValues.exposureCompensation(1).isUnknown)
        for sixths in [-10, -4, -2, 0, 2, 3, 4, 6, 30] {
            let value = ExposureCompensationValue(stops: ExposureStops(sixths: sixths))
            let code = SonyPropertyValues.exposureCompensationCode(value)
            #expect(SonyPropertyValues.exposureCompensation(code).commonValue == value, "\(sixths) sixths")
        }
        #expect(
            SonyPropertyValues.exposureCompensationCode(ExposureCompensationValue(thousandthsOfAStop: -667)) == -700)
        #expect(SonyPropertyValues.exposureMode(0x20003).commonValue == .aperturePriority)
        #expect(SonyPropertyValues.exposureMode(0x48000).commonValue == .fullyAutomatic)
        #expect(SonyPropertyValues.exposureMode(0x78050).localizedDisplayValue == "Movie (P)")
        #expect(SonyPropertyValues.exposureMode(0x1234).isUnknown)
        #expect(SonyPropertyValues.driveMode(0x18010).localizedDisplayValue == "Continuous Hi+")
        #expect(SonyPropertyValues.driveMode(0x48337).localizedDisplayValue == "Bracketing C 0.3 EV, 3 Pictures")
        #expect(SonyPropertyValues.driveMode(0x58310).localizedDisplayValue == "Bracketing S 1.0 EV, 3 Pictures")
        #expect(SonyPropertyValues.driveMode(0x38004).commonValue == .selfTimer)
        #expect(SonyPropertyValues.whiteBalance(0x8002).localizedDisplayValue == "Fluorescent: Cool White")
        #expect(SonyPropertyValues.whiteBalance(0x8002).commonValue == .fluorescent)
        #expect(SonyPropertyValues.focusMode(0x8005).commonValue == .automaticAutoFocus)
        #expect(SonyPropertyValues.batteryLevel(255).isUnknown && SonyPropertyValues.batteryLevel(-1).isUnknown)
        #expect(SonyPropertyValues.batteryLevel(71).commonValue == .percent(71))
    }

    /// Offered where a body gives a range: the nominal f-numbers and speeds inside it.
    @Test func rangesOfferTheNominalValuesInside() {
        let apertures = SonyProperties.nominalApertureCodes(from: 560, to: 3200)
        #expect(apertures.first == 560 && apertures.last == 3200 && apertures.contains(630))
        let speeds = SonyProperties.nominalShutterCodes(from: 0x0001_1F40, to: 0x001E_0001)
        #expect(speeds.first == 0x012C_000A && speeds.last == 0x0001_1F40)
        #expect(speeds.count == 55)
    }
}
