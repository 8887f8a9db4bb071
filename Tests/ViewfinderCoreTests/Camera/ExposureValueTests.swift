import Testing
import ViewfinderCore

@Suite struct ExposureStopsTests {
    @Test func partsAndSignRoundTrip() {
        let value = ExposureStops(wholeStops: 2, fraction: .twoThirds, isNegative: true)
        #expect(value.sixths == -16)
        #expect(value.wholeStops == 2)
        #expect(value.fraction == .twoThirds)
        #expect(value.isNegative)
        #expect(ExposureStops(wholeStops: -1, fraction: .oneHalf).sixths == -9)
        #expect(ExposureStops(wholeStops: 0, fraction: .oneThird).approximateValue == 2.0 / 6)
    }

    @Test(arguments: [
        (ExposureStops(wholeStops: 1, fraction: .oneThird), "+1⅓"),
        (ExposureStops(wholeStops: 0, fraction: .twoThirds, isNegative: true), "\u{2212}⅔"),
        (ExposureStops.zero, "0"),
        (ExposureStops(wholeStops: 2), "+2"),
        (ExposureStops(wholeStops: 1, fraction: .oneHalf, isNegative: true), "\u{2212}1½"),
        (ExposureStops(sixths: 1), "+⅙"),
        (ExposureStops(sixths: -11), "\u{2212}1⅚"),
    ])
    func descriptionIsCameraStyle(value: ExposureStops, text: String) {
        #expect(value.description == text)
    }

    @Test func arithmeticIsExactInSixths() {
        let third = ExposureStops(wholeStops: 0, fraction: .oneThird)
        let half = ExposureStops(wholeStops: 0, fraction: .oneHalf)
        #expect(third + third + third == ExposureStops(wholeStops: 1))
        #expect((third + half).fraction == .fiveSixths)
        #expect(half - third == ExposureStops(sixths: 1))
        #expect(-third == ExposureStops(wholeStops: 0, fraction: .oneThird, isNegative: true))
        #expect(
            third.difference(to: ExposureStops(wholeStops: 2)) == ExposureStops(wholeStops: 1, fraction: .twoThirds))
        #expect(ExposureStops(wholeStops: 3).difference(to: .zero) == ExposureStops(wholeStops: -3))
    }

    @Test func comparesByAmountOfLight() {
        let values = [
            ExposureStops(wholeStops: 1), ExposureStops(wholeStops: -2), .zero,
            ExposureStops(wholeStops: 0, fraction: .oneHalf), ExposureStops(wholeStops: 0, fraction: .oneThird),
        ]
        #expect(values.sorted().map(\.sixths) == [-12, 0, 2, 3, 6])
        #expect(ExposureStops(wholeStops: 1, isNegative: true) < .zero)
    }

    @Test func approximationSnapsToWholeThirdOrHalf() {
        #expect(ExposureStops(approximately: 6.92) == ExposureStops(wholeStops: 7))
        #expect(ExposureStops(approximately: 0.32) == ExposureStops(wholeStops: 0, fraction: .oneThird))
        #expect(ExposureStops(approximately: 0.49) == ExposureStops(wholeStops: 0, fraction: .oneHalf))
        #expect(ExposureStops(approximately: 0.16) == .zero)
        #expect(
            ExposureStops(approximately: -1.7) == ExposureStops(wholeStops: 1, fraction: .twoThirds, isNegative: true))
        #expect(ExposureStops(approximately: .nan) == nil)
        #expect(ExposureStops(approximately: -.infinity) == nil)
    }

    @Test func hugeAmountsAreLimitedNotTrapped() {
        let huge = ExposureStops(wholeStops: .max)
        #expect(huge.wholeStops == ExposureStops.maximumMagnitude)
        #expect(ExposureStops(wholeStops: .min).wholeStops == ExposureStops.maximumMagnitude)
        #expect(ExposureStops(sixths: .min).isNegative)
        #expect(ExposureStops(approximately: 1e300)?.wholeStops == ExposureStops.maximumMagnitude)
        #expect((huge + huge).wholeStops == ExposureStops.maximumMagnitude)
    }
}

@Suite struct ISOValueTests {
    @Test(arguments: [(800, "ISO 800"), (25600, "ISO 25600"), (100, "ISO 100"), (64, "ISO 64")])
    func displaysNumber(number: Int, text: String) {
        #expect(ISOValue(number)?.localizedDisplayValue == text)
    }

    @Test func automaticAndInvalidNumbers() {
        #expect(ISOValue.automatic.localizedDisplayValue == "Auto ISO")
        #expect(ISOValue.automatic.isAutomatic)
        #expect(ISOValue.automatic.numericValue == nil)
        #expect(ISOValue.automatic.stopsFromISO100 == nil)
        #expect(ISOValue(0) == nil)
        #expect(ISOValue(-100) == nil)
        #expect(ISOValue(100) == .iso100)
        #expect(ISOValue(800) != .automatic)
    }

    @Test(arguments: [(125, 2), (160, 4), (200, 6), (800, 18), (25600, 48), (50, -6), (64, -4), (140, 3)])
    func stopsFromISO100(number: Int, sixths: Int) {
        #expect(ISOValue(number)?.stopsFromISO100 == ExposureStops(sixths: sixths))
    }

    @Test func differenceBetweenSensitivities() throws {
        let low = try #require(ISOValue.iso100.stopsFromISO100)
        let high = try #require(ISOValue.iso1600.stopsFromISO100)
        #expect(low.difference(to: high) == ExposureStops(wholeStops: 4))
    }
}

@Suite struct ShutterSpeedValueTests {
    /// Durations as fractions, numerator over denominator, with the text cameras show.
    static let nominalSpeeds: [(numerator: Double, denominator: Double, text: String)] = [
        (1, 250, "1/250"), (30, 1, "30\""), (1, 8000, "1/8000"), (1, 3, "0.3\""), (3, 10, "0.3\""),
        (5, 2, "2.5\""), (3, 2, "1.5\""), (7, 10, "0.7\""), (1, 6, "1/6"), (1, 1, "1\""), (1, 4, "1/4"),
        (1, 2, "0.5\""), (13, 1, "13\""), (1, 180, "1/180"), (1, 13, "1/13"), (1, 6400, "1/6400"),
        (1, 45, "1/45"), (60, 1, "60\""), (1, 60, "1/60"),
    ]

    @Test(arguments: nominalSpeeds)
    func displaysNominalSpeed(numerator: Double, denominator: Double, text: String) {
        #expect(ShutterSpeedValue(seconds: numerator / denominator)?.localizedDisplayValue == text)
    }

    @Test(arguments: [
        (Int64(40), "1/250"), (3333, "0.3\""), (3000, "0.3\""), (1, "1/10000"), (2, "1/5000"), (3, "1/3200"),
        (300_000, "30\""), (25_000, "2.5\""), (10_000, "1\""), (8, "1/1250"),
    ])
    func readsTenThousandthsOfASecond(raw: Int64, text: String) {
        #expect(ShutterSpeedValue(tenThousandthsOfASecond: raw)?.localizedDisplayValue == text)
    }

    @Test func nominalStepsHaveExactStops() throws {
        let speed = try #require(ShutterSpeedValue(seconds: 1.0 / 250))
        #expect(speed.stopsFromOneSecond == ExposureStops(wholeStops: -8))
        #expect(ShutterSpeedValue(seconds: 30)?.stopsFromOneSecond == ExposureStops(wholeStops: 5))
        #expect(ShutterSpeedValue(seconds: 1.0 / 3)?.stopsFromOneSecond == ExposureStops(sixths: -10))
        #expect(ShutterSpeedValue(seconds: 1.5)?.stopsFromOneSecond == ExposureStops(sixths: 3))
        #expect(ShutterSpeedValue(seconds: 1.0 / 180)?.stopsFromOneSecond == ExposureStops(sixths: -45))
        #expect(ShutterSpeedValue(tenThousandthsOfASecond: 3333) == ShutterSpeedValue(tenThousandthsOfASecond: 3000))
        #expect(ShutterSpeedValue(duration: .milliseconds(4)) == speed)
        #expect(ShutterSpeedValue(stopsFromOneSecond: ExposureStops(wholeStops: -8)) == speed)
        #expect(speed.approximateSeconds == 1.0 / 250)
    }

    @Test func speedsBeyondTheTableAreComputed() {
        #expect(ShutterSpeedValue(seconds: 128)?.localizedDisplayValue == "128\"")
        #expect(ShutterSpeedValue(seconds: 1.0 / 65536)?.localizedDisplayValue == "1/65536")
        #expect(
            ShutterSpeedValue(stopsFromOneSecond: ExposureStops(wholeStops: -16)).localizedDisplayValue == "1/65536")
    }

    @Test func bulbAndInvalidDurations() {
        #expect(ShutterSpeedValue.bulb.localizedDisplayValue == "Bulb")
        #expect(ShutterSpeedValue.bulb.isBulb)
        #expect(ShutterSpeedValue.bulb.stopsFromOneSecond == nil)
        #expect(ShutterSpeedValue.bulb.approximateSeconds == nil)
        #expect(ShutterSpeedValue(seconds: 0) == nil)
        #expect(ShutterSpeedValue(seconds: -1) == nil)
        #expect(ShutterSpeedValue(seconds: .nan) == nil)
        #expect(ShutterSpeedValue(seconds: .infinity) == nil)
        #expect(ShutterSpeedValue(tenThousandthsOfASecond: 0) == nil)
    }
}

@Suite struct ApertureValueTests {
    @Test(arguments: [
        (1.4, "f/1.4"), (5.6, "f/5.6"), (8, "f/8"), (22, "f/22"), (7.1, "f/7.1"), (9.5, "f/9.5"), (10, "f/10"),
        (11, "f/11"), (1.2, "f/1.2"), (2.8, "f/2.8"), (16, "f/16"),
    ])
    func displaysLikeTheLensMarking(fNumber: Double, text: String) {
        #expect(ApertureValue(fNumber: fNumber)?.localizedDisplayValue == text)
    }

    @Test(arguments: [(140, 6), (800, 36), (1100, 42), (2200, 54), (710, 34), (560, 30), (450, 26), (100, 0)])
    func stopsFromF1(hundredths: Int, sixths: Int) {
        #expect(ApertureValue(hundredthsOfFNumber: hundredths)?.stopsFromF1 == ExposureStops(sixths: sixths))
    }

    @Test func automaticAndInvalidNumbers() {
        #expect(ApertureValue.automatic.localizedDisplayValue == "Auto")
        #expect(ApertureValue.automatic.isAutomatic)
        #expect(ApertureValue.automatic.fNumber == nil)
        #expect(ApertureValue(hundredthsOfFNumber: 0) == nil)
        #expect(ApertureValue(fNumber: -2) == nil)
        #expect(ApertureValue(fNumber: .nan) == nil)
        #expect(ApertureValue(fNumber: 1e300) == nil)
        #expect(ApertureValue(fNumber: 5.6) == ApertureValue(hundredthsOfFNumber: 560))
        #expect(ApertureValue(hundredthsOfFNumber: 560)?.fNumber == 5.6)
    }
}

@Suite struct ExposureCompensationValueTests {
    @Test(arguments: [
        (1333, "+1⅓"), (-667, "\u{2212}⅔"), (0, "0"), (300, "+⅓"), (700, "+⅔"), (1700, "+1⅔"), (500, "+½"),
        (-1500, "\u{2212}1½"), (2000, "+2"), (-3000, "\u{2212}3"),
    ])
    func readsThousandthsOfAStop(raw: Int, text: String) {
        #expect(ExposureCompensationValue(thousandthsOfAStop: raw).localizedDisplayValue == text)
    }

    @Test func roundTripsAndOrders() {
        let value = ExposureCompensationValue(stops: ExposureStops(wholeStops: 1, fraction: .oneThird))
        #expect(value.thousandthsOfAStop == 1333)
        #expect(ExposureCompensationValue(thousandthsOfAStop: value.thousandthsOfAStop) == value)
        #expect(ExposureCompensationValue.zero < value)
        #expect(ExposureCompensationValue(thousandthsOfAStop: -333) < .zero)
    }
}

@Suite struct ModeValueTests {
    @Test func everyModeHasDistinctText() {
        let texts: [[String]] = [
            WhiteBalanceValue.allCases.map(\.localizedDisplayValue),
            FocusModeValue.allCases.map(\.localizedDisplayValue),
            AutoExposureModeValue.allCases.map(\.localizedDisplayValue),
            DriveModeValue.allCases.map(\.localizedDisplayValue),
        ]
        for list in texts {
            #expect(Set(list).count == list.count)
            #expect(!list.contains(""))
        }
        #expect(WhiteBalanceValue.daylight.localizedDisplayValue == "Daylight")
        #expect(FocusModeValue.continuousAutoFocus.description == "AF-C")
        #expect(AutoExposureModeValue.aperturePriority.localizedDisplayValue == "A")
        #expect(DriveModeValue.selfTimer.localizedDisplayValue == "Self-Timer")
    }

    @Test func batteryLevelClampsBadReadings() {
        #expect(BatteryLevelValue(clampingPercent: 150) == .percent(100))
        #expect(BatteryLevelValue(clampingPercent: -3) == .percent(0))
        #expect(BatteryLevelValue.percent(80).localizedDisplayValue == "80%")
        #expect(BatteryLevelValue.charging.localizedDisplayValue == "Charging")
    }

    @Test func controlAndCountValues() {
        #expect(CameraControlValue.integer(-12).localizedDisplayValue == "-12")
        #expect(CameraControlValue.boolean(true).localizedDisplayValue == "On")
        #expect(CameraControlValue.menuItem("50 Hz").localizedDisplayValue == "50 Hz")
        #expect(ShotsAvailableValue(412).localizedDisplayValue == "412")
        #expect(ShotsAvailableValue(3) < ShotsAvailableValue(4))
    }

    @Test(arguments: [
        (Duration.seconds(647), "10:47"), (.seconds(5), "0:05"), (.seconds(4502), "75:02"), (.seconds(-4), "0:00"),
        (.milliseconds(59_999), "0:59"),
    ])
    func recordingTimerAsMinutesAndSeconds(duration: Duration, text: String) {
        #expect(VideoRecordingTimer.countingUp(duration).asMinutesAndSeconds == text)
        #expect(VideoRecordingTimer.countingDown(duration).asMinutesAndSeconds == text)
    }

    /// Stops far beyond any camera's still make a value that shows itself, without an integer conversion trapping.
    @Test func extremeShutterSpeedsShowThemselves() {
        for stops in [-1_000_000, -2000, -60, 60, 2000, 1_000_000] {
            let speed = ShutterSpeedValue(stopsFromOneSecond: ExposureStops(wholeStops: stops))
            #expect(!speed.localizedDisplayValue.isEmpty, "\(stops) stops")
        }
        #expect(ShutterSpeedValue(seconds: 1e-300)?.localizedDisplayValue.hasPrefix("1/") == true)
        #expect(ShutterSpeedValue(seconds: 1e300)?.localizedDisplayValue.hasSuffix("\"") == true)
    }

    /// Cameras that report apertures and sensitivities in stops (Canon's eighths) show the nominal numbers.
    @Test func stopsMakeTheNominalApertureAndSensitivity() {
        let apertures = (0...30).map { ApertureValue(stopsFromF1: ExposureStops(sixths: 2 * $0)).localizedDisplayValue }
        #expect(
            apertures == [
                "f/1", "f/1.1", "f/1.2", "f/1.4", "f/1.6", "f/1.8", "f/2", "f/2.2", "f/2.5", "f/2.8", "f/3.2", "f/3.5",
                "f/4", "f/4.5", "f/5", "f/5.6", "f/6.3", "f/7.1", "f/8", "f/9", "f/10", "f/11", "f/13", "f/14", "f/16",
                "f/18", "f/20", "f/22", "f/25", "f/29", "f/32",
            ])
        #expect(ApertureValue(stopsFromF1: ExposureStops(sixths: 27)).localizedDisplayValue == "f/4.8")  // 4½ stops
        let isos = (-6...24).map { ISOValue(stopsFromISO100: ExposureStops(sixths: 2 * $0)).numericValue ?? 0 }
        #expect(
            isos == [
                25, 32, 40, 50, 64, 80, 100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500,
                3200, 4000, 5000, 6400, 8000, 10000, 12800, 16000, 20000, 25600,
            ])
        #expect(ISOValue(stopsFromISO100: ExposureStops(wholeStops: 10)).numericValue == 102_400)
        // And back: each nominal value is as many stops as it was made from.
        for sixths in stride(from: -12, through: 60, by: 2) {
            let stops = ExposureStops(sixths: sixths)
            #expect(ISOValue(stopsFromISO100: stops).stopsFromISO100 == stops, "\(sixths) sixths")
            // f/1.2 is printed for both ⅔ and ½ stop, so the round trip starts at f/1.4.
            if sixths >= 6 {
                #expect(ApertureValue(stopsFromF1: stops).stopsFromF1 == stops, "\(sixths) sixths")
            }
        }
    }
}
