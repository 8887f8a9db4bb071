import Testing
import Viewfinder

@testable import ViewfinderCLI

/// How the camera commands read property values and camera addresses as people write them.
@Suite struct PropertyValueSyntaxTests {
    @Test func isoValues() {
        #expect(PropertyValueSyntax.iso("800") == .iso800)
        #expect(PropertyValueSyntax.iso("ISO 800") == .iso800)
        #expect(PropertyValueSyntax.iso("iso1600") == .iso1600)
        #expect(PropertyValueSyntax.iso("Auto") == .automatic)
        #expect(PropertyValueSyntax.iso("0") == nil)
        #expect(PropertyValueSyntax.iso("fast") == nil)
    }

    @Test func shutterSpeeds() {
        #expect(PropertyValueSyntax.shutterSpeed("1/250") == ShutterSpeedValue(seconds: 1.0 / 250))
        #expect(PropertyValueSyntax.shutterSpeed("1/250s") == ShutterSpeedValue(seconds: 1.0 / 250))
        #expect(PropertyValueSyntax.shutterSpeed("30\"") == ShutterSpeedValue(seconds: 30))
        #expect(PropertyValueSyntax.shutterSpeed("2.5") == ShutterSpeedValue(seconds: 2.5))
        #expect(PropertyValueSyntax.shutterSpeed("bulb") == .bulb)
        #expect(PropertyValueSyntax.shutterSpeed("1/0") == nil)
        #expect(PropertyValueSyntax.shutterSpeed("-1") == nil)
        #expect(PropertyValueSyntax.shutterSpeed("1/2/3") == nil)
    }

    @Test func apertures() {
        #expect(PropertyValueSyntax.aperture("f/8") == ApertureValue(fNumber: 8))
        #expect(PropertyValueSyntax.aperture("F8") == ApertureValue(fNumber: 8))
        #expect(PropertyValueSyntax.aperture("5.6") == ApertureValue(fNumber: 5.6))
        #expect(PropertyValueSyntax.aperture("f/0") == nil)
        #expect(PropertyValueSyntax.aperture("wide") == nil)
    }

    @Test func exposureCompensation() {
        func stops(_ sixths: Int) -> ExposureCompensationValue {
            ExposureCompensationValue(stops: ExposureStops(sixths: sixths))
        }
        #expect(PropertyValueSyntax.exposureCompensation("+1/3") == stops(2))
        #expect(PropertyValueSyntax.exposureCompensation("1/3") == stops(2))
        #expect(PropertyValueSyntax.exposureCompensation("-2/3") == stops(-4))
        #expect(PropertyValueSyntax.exposureCompensation("−⅔") == stops(-4))
        #expect(PropertyValueSyntax.exposureCompensation("+1 1/3") == stops(8))
        #expect(PropertyValueSyntax.exposureCompensation("-1 1/2") == stops(-9))
        #expect(PropertyValueSyntax.exposureCompensation("-1.5") == stops(-9))
        #expect(PropertyValueSyntax.exposureCompensation("0") == stops(0))
        #expect(PropertyValueSyntax.exposureCompensation("+1 4/3") == nil)
        #expect(PropertyValueSyntax.exposureCompensation("a lot") == nil)
    }

    @Test func namedValues() {
        let whiteBalance = PropertyValueSyntax.named(WhiteBalanceValue.self)
        #expect(whiteBalance("daylight") == .daylight)
        #expect(whiteBalance("AUTO") == .automatic)
        let drive = PropertyValueSyntax.named(DriveModeValue.self)
        #expect(drive("continuous-high") == .continuousHigh)
        #expect(drive("Self Timer") == .selfTimer)
        #expect(PropertyValueSyntax.focusMode("AF-S") == .singleAutoFocus)
        #expect(PropertyValueSyntax.focusMode("manual") == .manual)
        #expect(PropertyValueSyntax.exposureMode("Av") == .aperturePriority)
        #expect(PropertyValueSyntax.exposureMode("M") == .manual)
        #expect(PropertyValueSyntax.exposureMode("X") == nil)
    }

    @Test func aCamerasOwnTextMatchesItsValue() {
        let property = TypedCommandLineProperty(
            identifier: .exposureCompensation, name: "ev", aliases: [], valueSyntax: "",
            parse: PropertyValueSyntax.exposureCompensation)
        let values = CameraPropertySettableValues(
            [-4, 0, 8].map {
                TypedCameraPropertyValue(
                    ExposureCompensationValue(stops: ExposureStops(sixths: $0)), rawValue: .integer(Int64($0)))
            })
        #expect(property.match("+1⅓", in: values)?.rawValue == .integer(8))
        #expect(property.match("+1 1/3", in: values)?.rawValue == .integer(8))
        #expect(property.match("-2/3", in: values)?.rawValue == .integer(-4))
        #expect(property.match("+1", in: values) == nil)
    }

    @Test func hostsAndPorts() throws {
        #expect(try CameraTarget.hostAndPort("192.168.1.1", commandPath: "") == ("192.168.1.1", nil))
        #expect(try CameraTarget.hostAndPort("camera.local:15741", commandPath: "") == ("camera.local", 15741))
        #expect(try CameraTarget.hostAndPort("[fe80::1]:15740", commandPath: "") == ("fe80::1", 15740))
        #expect(try CameraTarget.hostAndPort("fe80::1", commandPath: "") == ("fe80::1", nil))
        for text in ["", ":15740", "host:", "host:70000", "[::1", "[::1]x"] {
            #expect(throws: UsageError.self, "\(text)") { try CameraTarget.hostAndPort(text, commandPath: "") }
        }
    }

    @Test func longListsOfSettableValuesAreSummarisedForTables() {
        func reading(_ values: [String]) -> PropertyReading {
            PropertyReading(name: "iso", displayName: "ISO", value: "ISO 100", settableValues: values)
        }
        #expect(reading([]).settableSummary == "read-only")
        #expect(reading(["M", "P", "A", "S"]).settableSummary == "M, P, A, S")
        let isoValues = [100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600].map { "ISO \($0)" }
        #expect(reading(isoValues).settableSummary == "ISO 100, ISO 200, … ISO 25600 (9 values)")
        var range = reading([])
        range.settableRange = .init(first: "-5", last: "+5", count: 31)
        #expect(range.settableSummary == "-5 to +5 (31 values)")
    }
}
