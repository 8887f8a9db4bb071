import Testing
import ViewfinderCore

@testable import ViewfinderPTP
@testable import ViewfinderSimulator

/// The datasets real cameras sent, as their gphoto2 debug logs in `Traces/` hold them (each log names its source on
/// its first line), decoded by Viewfinder's codecs: bytes no one here wrote.
@Suite struct RealCameraCodecTests {
    /// The data phase of the first transaction of `operation` in `trace` that the log holds whole.
    static func data(of operation: PTPOperationCode, in trace: String) throws -> [UInt8] {
        let recording = try ReplayHarness.recording(trace)
        return try #require(recording.transactions.first { $0.operation == operation && $0.dataIn != nil }?.dataIn)
    }

    @Test func aCanonDSLRsDeviceInfo() throws {
        let info = try PTPDeviceInfo(decoding: Self.data(of: .getDeviceInfo, in: "canon-eos60d-libgphoto2-cameras.log"))
        #expect(info.manufacturer == "Canon Inc.")
        #expect(info.model == "Canon EOS 60D")
        // Microsoft's MTP extension, with Canon as the maker: the dialect goes by both.
        #expect(info.vendorExtensionID == 6)
        #expect(info.supports(.canonEOSGetEvent) && info.supports(.canonEOSRemoteRelease))
        #expect(CanonEOSDialect.claims(info))
        #expect(!CanonEOSDialect.isEOSMFamily(info) && CanonEOSDialect.remoteMode(of: info) == 1)
    }

    /// The Samsung NX1's DeviceInfo: vendor extension 0, and no serial number.
    @Test func aSamsungsDeviceInfo() throws {
        let info = try PTPDeviceInfo(decoding: Self.data(of: .getDeviceInfo, in: "samsung-nx01-libgphoto2-cameras.log"))
        #expect(info.manufacturer == "SAMSUNG Electronics Co. Ltd. ")
        #expect(info.model == "SAMSUNG NX1" && info.deviceVersion == "V1.0" && info.serialNumber.isEmpty)
        #expect(info.vendorExtensionID == 0)
        #expect(info.operationsSupported.count == 21)
        #expect(PTPDialects.dialect(for: info) is StandardDialect.Type)
    }

    /// A 9 KB GetEvent answer of an EOS M50 in scene-auto: every record decodes, the property records give the
    /// exposure the camera showed, and its OLC record, read by the OLC version it reported, gives the same.
    @Test func anEOSM50sEventsAndOLCRecord() throws {
        let events = try PTPCanonEOSEvent.decode(
            Self.data(of: .canonEOSGetEvent, in: "canon-eos-m50-libgphoto2-cameras.log"))
        #expect(events.count > 200)
        func value(_ code: PTPDevicePropertyCode) -> UInt8? {
            for case .propertyChanged(code, let value) in events { return value.first }
            return nil
        }
        #expect(value(.canonEOSAperture) == 0xB0)
        #expect(value(.canonEOSShutterSpeed) == 0x38)
        #expect(value(.canonEOSISOSpeed) == 0)
        #expect(value(.canonEOSOLCInfoVersion) == 0x10)
        let olc = try #require(
            events.compactMap { event -> [UInt8]? in
                guard case .other(CanonEOSOLCInfo.recordType, let payload) = event else { return nil }
                return payload
            }.first)
        let exposure = CanonEOSOLCInfo.exposure(in: olc, version: 0x10)
        #expect(exposure.map(\.0) == [.canonEOSShutterSpeed, .canonEOSAperture, .canonEOSISOSpeed])
        #expect(exposure.map(\.1) == [0x38, 0xB0, 0])
        // Without the version the record cannot be read, as libgphoto2 skips it.
        #expect(CanonEOSOLCInfo.exposure(in: olc, version: 0).isEmpty)
    }

    /// A 5D Mark III's GetEvent answer, read in three pieces in the log.
    @Test func anEOS5DMarkIIIsEvents() throws {
        let events = try PTPCanonEOSEvent.decode(
            Self.data(of: .canonEOSGetEvent, in: "canon-eos5dmark3-libgphoto2-cameras.log"))
        let allowed = events.compactMap { event -> [UInt32]? in
            guard case .allowedValuesChanged(.canonEOSShutterSpeed, let values) = event else { return nil }
            return values
        }.first
        #expect(allowed?.count == 55)
        #expect(allowed?.allSatisfy { !CanonEOSPropertyValues.shutterSpeed(Int64($0)).isUnknown } == true)
    }

    /// A PowerShot G5 X reports a focus mode outside the EOS table: it decodes as unknown, with its code.
    @Test func aPowerShotsFocusModeOutsideTheTable() throws {
        let recording = try ReplayHarness.recording("canon-powershot-g5x-libgphoto2-cameras.log")
        var focus: [UInt8]?
        for transaction in recording.transactions where transaction.operation == .canonEOSGetEvent {
            for case .propertyChanged(.canonEOSFocusMode, let value) in try PTPCanonEOSEvent.decode(
                transaction.dataIn ?? [])
            {
                focus = value
            }
        }
        let code = try #require(focus).prefix(2).reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        #expect(code == 0x1CE)
        #expect(CanonEOSPropertyValues.focusMode(code).isUnknown)
    }

    /// A Nikon Z 6's property descriptions, as its summary gave them: decoded with Nikon's tables, no value it lists
    /// for ISO, aperture, shutter speed or exposure compensation is unknown.
    @Test func aNikonZ6sPropertyDescriptions() throws {
        let recording = try ReplayHarness.recording("nikon-z6-libgphoto2-cameras.log")
        func description(_ code: PTPDevicePropertyCode) throws -> PTPDevicePropertyDescription {
            let bytes = try #require(
                recording.transactions.first {
                    $0.operation == .getDevicePropDesc && $0.parameters == [UInt32(code.rawValue)]
                }?.dataIn)
            return try PTPDevicePropertyDescription(decoding: bytes)
        }
        let iso = try description(.exposureIndex)
        #expect(iso.currentValue == .uint16(160))
        guard case .enumeration(let isos) = iso.form else { throw ViewfinderError(.malformedData, "no ISO list") }
        #expect(isos.allSatisfy { !StandardPropertyValues.iso($0.integerValue ?? -1).isUnknown })
        let shutter = try description(.exposureTime)
        guard case .enumeration(let speeds) = shutter.form else { throw ViewfinderError(.malformedData, "no speeds") }
        #expect(speeds.count > 50)
        #expect(
            speeds.allSatisfy {
                !StandardPropertyValues.shutterSpeed(
                    $0.integerValue ?? -1, names: NikonPropertyValues.shutterSpeedNames
                )
                .isUnknown
            })
        let program = try description(.exposureProgramMode)
        guard case .enumeration(let programs) = program.form else { throw ViewfinderError(.malformedData, "none") }
        let unknown = programs.filter {
            StandardPropertyValues.exposureProgram($0.integerValue ?? -1, vendor: NikonPropertyValues.exposureProgram)
                .isUnknown
        }
        #expect(unknown.isEmpty, "exposure programs without a name: \(unknown)")
    }
}
