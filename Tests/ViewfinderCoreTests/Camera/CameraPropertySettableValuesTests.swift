import Testing
import ViewfinderCore

@Suite struct CameraPropertySettableValuesTests {
    @Test func listKeepsTheCameraOrder() {
        let values: CameraPropertySettableValues<WhiteBalanceValue> = [
            TypedCameraPropertyValue(.automatic, rawValue: .integer(2)),
            TypedCameraPropertyValue(.daylight, rawValue: .integer(4)),
            TypedCameraPropertyValue(unrecognizedRawValue: .integer(0x8012), localizedDisplayValue: "Underwater"),
        ]
        #expect(values.valueSetType == .enumeration)
        #expect(values.map(\.localizedDisplayValue) == ["Auto", "Daylight", "Underwater"])
        #expect(values.position(of: TypedCameraPropertyValue(.daylight, rawValue: .integer(4))) == 1)
        #expect(values.position(of: TypedCameraPropertyValue(.daylight, rawValue: .integer(5))) == nil)
        #expect(values.first(matchingCommonValue: .daylight)?.rawValue == .integer(4))
        #expect(values.first(matchingCommonValue: .shade) == nil)
        #expect(values[2].commonValue == nil)
        #expect(CameraPropertySettableValues<WhiteBalanceValue>([]).valueSetType == .none)
    }

    @Test func unknownValuesAreShownButNeverOfferedAsSettable() {
        let unknown = TypedCameraPropertyValue<WhiteBalanceValue>.unknown(.integer(0x1CE))
        #expect(unknown.isUnknown && unknown.commonValue == nil)
        #expect(unknown.localizedDisplayValue == "Unknown (0x01CE)")
        #expect(
            TypedCameraPropertyValue<WhiteBalanceValue>.unknown(.string("x")).localizedDisplayValue == "Unknown (\"x\")"
        )
        let named = TypedCameraPropertyValue<WhiteBalanceValue>(
            unrecognizedRawValue: .integer(0x8012), localizedDisplayValue: "Underwater")
        #expect(!named.isUnknown)
        let values = CameraPropertySettableValues([
            TypedCameraPropertyValue(.automatic, rawValue: .integer(2)), unknown, named,
        ])
        #expect(values.map(\.localizedDisplayValue) == ["Auto", "Underwater"])
        #expect(values.position(of: unknown) == nil)
    }

    @Test func numericRangeMakesValuesAsTheyAreRead() throws {
        let values = try CameraPropertySettableValues<CameraControlValue>.numericRange(from: -64, through: 64, step: 4)
        {
            .integer($0)
        }
        #expect(values.valueSetType == .numericRange)
        #expect(values.count == 33)
        #expect(values.first?.commonValue == .integer(-64))
        #expect(values.last?.rawValue == .integer(64))
        #expect(values[17].localizedDisplayValue == "4")
        #expect(values.position(of: TypedCameraPropertyValue(.integer(4), rawValue: .integer(4))) == 17)
        #expect(values.position(of: TypedCameraPropertyValue(.integer(5), rawValue: .integer(5))) == nil)
        #expect(values.position(of: TypedCameraPropertyValue(.integer(68), rawValue: .integer(68))) == nil)
        #expect(values.first(matchingCommonValue: .integer(8))?.rawValue == .integer(8))
        #expect(values.first(matchingCommonValue: .integer(9)) == nil)
    }

    @Test func hugeRangesCostNothingUntilRead() throws {
        let values = try CameraPropertySettableValues<CameraControlValue>.numericRange(
            from: .min, through: .max, step: 4, makeValue: { .integer($0) },
            rawValueOfValue: { value in
                guard case .integer(let integer) = value else { return nil }
                return integer
            })
        #expect(values.count == 1 << 62)
        #expect(values.last?.rawValue == .integer(.max - 3))
        let found = values.first(matchingCommonValue: .integer(400))
        #expect(found.flatMap(values.position(of:)) == (1 << 61) + 100)
        #expect(values.first(matchingCommonValue: .boolean(true)) == nil)
    }

    @Test func rangesADeviceCannotHaveAreRefused() {
        #expect(throws: ViewfinderError.self) {
            try CameraPropertySettableValues<CameraControlValue>.numericRange(from: 0, through: 10, step: 0) {
                .integer($0)
            }
        }
        #expect(throws: ViewfinderError.self) {
            try CameraPropertySettableValues<CameraControlValue>.numericRange(from: 10, through: 0, step: 1) {
                .integer($0)
            }
        }
        #expect(throws: ViewfinderError.self) {
            try CameraPropertySettableValues<CameraControlValue>.numericRange(from: .min, through: .max, step: 1) {
                .integer($0)
            }
        }
    }

    @Test func unknownIntegersInARangeAreUnrecognizedValues() throws {
        let values = try CameraPropertySettableValues<ShotsAvailableValue>.numericRange(from: -1, through: 1, step: 1) {
            $0 < 0 ? nil : ShotsAvailableValue(Int($0))
        }
        #expect(values[0].commonValue == nil)
        #expect(values[0].localizedDisplayValue == "-1")
        #expect(values[2].commonValue == ShotsAvailableValue(1))
    }

    @Test func rangesCompareByBoundsAndStep() throws {
        let make = { (step: Int64) in
            try CameraPropertySettableValues<CameraControlValue>.numericRange(from: 0, through: 100, step: step) {
                .integer($0)
            }
        }
        #expect(try make(10) == make(10))
        #expect(try make(10) != make(5))
        #expect(try make(10) != CameraPropertySettableValues([]))
    }
}
