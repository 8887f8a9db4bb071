import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// The values of ExposureProgramMode the simulator offers.
enum ExposureProgram: UInt16 {
    case manual = 1
    case program = 2
    case aperturePriority = 3
    case shutterPriority = 4
}

extension SimulatedCamera {
    /// The properties every identity has, with realistic values and forms.
    static func standardProperties(imageSizes: [String], battery: UInt8) -> [SimulatedProperty] {
        let iso = ExposureModel.isoSpeeds.map { PTPValue.uint16($0) } + [.uint16(ExposureModel.automaticISO)]
        let shutter = ExposureModel.shutterSpeeds.map { PTPValue.uint32($0.value) }
        let apertures = ExposureModel.apertures.map { PTPValue.uint16($0) }
        let compensation = ExposureModel.compensations.map { PTPValue.int16($0) }
        var date = SimulatedProperty(
            code: .dateTime, dataType: .string, factoryDefault: .string("20250101T000000"),
            value: .string("20250101T000000"), form: .none, isSettable: true)
        date.accepts = { value in
            guard case .string(let text) = value else { return false }
            return PTPDate.secondsSince1970(text) != nil
        }
        return [
            SimulatedProperty(
                code: .batteryLevel, dataType: .uint8, factoryDefault: .uint8(100), value: .uint8(battery),
                form: .range(minimum: .uint8(0), maximum: .uint8(100), step: .uint8(1)), isSettable: false),
            .enumeration(.imageSize, imageSizes.map { .string($0) }, current: .string(imageSizes.last ?? "3008x2000")),
            .enumeration(.whiteBalance, [2, 4, 5, 6, 7, 1].map { .uint16($0) }, current: .uint16(2)),
            .enumeration(.fNumber, apertures, current: .uint16(560)),
            SimulatedProperty(
                code: .focalLength, dataType: .uint32, factoryDefault: .uint32(3500), value: .uint32(3500),
                form: .range(minimum: .uint32(1800), maximum: .uint32(14000), step: .uint32(100)), isSettable: false),
            .enumeration(.focusMode, [1, 2, 3].map { .uint16($0) }, current: .uint16(2)),
            .enumeration(.exposureMeteringMode, [2, 3, 4].map { .uint16($0) }, current: .uint16(3)),
            .enumeration(.exposureTime, shutter, current: .uint32(80)),
            .enumeration(.exposureProgramMode, [1, 2, 3, 4].map { .uint16($0) }, current: .uint16(1)),
            .enumeration(.exposureIndex, iso, current: .uint16(100)),
            .enumeration(.exposureBiasCompensation, compensation, current: .int16(0)),
            date,
        ]
    }

    /// The per-channel gains a white balance setting gives a scene lit by daylight.
    static func gains(forWhiteBalance mode: UInt16) -> (red: Double, green: Double, blue: Double) {
        switch mode {
        case 5: (0.85, 1, 1.2)  // fluorescent: a cooler picture
        case 6: (0.6, 0.85, 1.6)  // tungsten: a blue picture
        case 7: (1.05, 1, 0.92)  // flash: slightly warm
        default: (1, 1, 1)  // automatic, daylight, manual
        }
    }
}

/// Exposure settings as numbers, after the camera has chosen what its program leaves to it.
struct ExposureSettings: Equatable {
    var fNumber: Double
    var seconds: Double
    var iso: Double
    /// The values to show for the properties the program controls.
    var shutterValue: UInt32
    var apertureValue: UInt16

    /// Lets the camera choose what `program` leaves to it, for a scene of brightness `sceneEV`.
    ///
    /// - Parameters:
    ///   - program: The exposure program.
    ///   - fNumberSetting: The aperture setting (f-number × 100).
    ///   - shutterSetting: The shutter setting (1/10000 s).
    ///   - isoSetting: The ISO setting; `0xFFFF` is automatic.
    ///   - compensation: The exposure compensation in EV, used by the automatic programs.
    ///   - sceneEV: The scene's brightness as EV100.
    init(
        program: ExposureProgram, fNumberSetting: UInt16, shutterSetting: UInt32, isoSetting: UInt16,
        compensation: Double, sceneEV: Double
    ) {
        let automaticISO = isoSetting == ExposureModel.automaticISO
        var iso = automaticISO ? 100 : Double(isoSetting)
        var fNumber = Double(fNumberSetting) / 100
        var seconds = ExposureModel.seconds(ofShutter: shutterSetting)
        // The EV100 that exposes the scene as the photographer asked: each EV of compensation lets in twice the light.
        let target = sceneEV - (program == .manual ? 0 : compensation)
        func secondsFor(_ fNumber: Double, _ iso: Double) -> Double { fNumber * fNumber * 100 / (iso * exp2(target)) }
        func fNumberFor(_ seconds: Double, _ iso: Double) -> Double {
            (seconds * iso * exp2(target) / 100).squareRoot()
        }
        switch program {
        case .manual:
            if automaticISO {
                iso = min(25600, max(100, fNumber * fNumber * 100 / (seconds * exp2(target))))
            }
        case .aperturePriority:
            seconds = secondsFor(fNumber, iso)
            if automaticISO, seconds > 1.0 / 60 {
                iso = min(25600, iso * seconds * 60)
                seconds = secondsFor(fNumber, iso)
            }
        case .shutterPriority:
            fNumber = fNumberFor(seconds, iso)
            if automaticISO, fNumber < 1.4 {
                iso = min(25600, iso * (1.4 / fNumber) * (1.4 / fNumber))
                fNumber = fNumberFor(seconds, iso)
            }
        case .program:
            // A program line: f/5.6 at 1/125 s in middling light, opening up or stopping down from there.
            fNumber = min(11, max(2.8, fNumberFor(1.0 / 125, iso)))
            seconds = secondsFor(fNumber, iso)
            if automaticISO, seconds > 1.0 / 30 {
                iso = min(25600, iso * seconds * 30)
                seconds = secondsFor(fNumber, iso)
            }
        }
        shutterValue = ExposureModel.nearestShutter(to: seconds)
        apertureValue = ExposureModel.nearestAperture(to: fNumber)
        self.seconds = ExposureModel.seconds(ofShutter: shutterValue)
        self.fNumber = Double(apertureValue) / 100
        self.iso = automaticISO ? Double(ExposureModel.nearestISO(to: iso)) : iso
    }

    /// The light that reaches the sensor compared with a correct exposure of the scene.
    func exposureFactor(sceneEV: Double) -> Double {
        ExposureModel.exposureFactor(sceneEV: sceneEV, fNumber: fNumber, seconds: seconds, iso: iso)
    }
}

/// The camera's clock: the system clock plus an offset a client sets through DateTime; its dates are PTP's
/// (``PTPDate``).
enum CameraClock {
    /// Seconds since 1970 now.
    static func now() -> Int {
        Int(time(nil))
    }
}
