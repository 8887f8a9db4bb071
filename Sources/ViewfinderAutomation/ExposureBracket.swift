import ViewfinderCore

/// Exposure bracketing: pictures at exposure steps around the camera's current shutter speed or exposure
/// compensation, taken from the values the camera accepts, with the setting put back afterwards.
///
/// The shots go in the order cameras bracket in: the current value, then one step darker, one step brighter, two
/// steps darker, and so on. Each value is the one the camera offers nearest the step; a bracket that would need a
/// value beyond the camera's range is refused before any picture is taken. The setting is restored whether the
/// bracket ends normally, fails or is cancelled.
///
/// ```swift
/// let bracket = ExposureBracket(setting: .exposureCompensation, shots: 5, step: ExposureStops(wholeStops: 1))
/// for try await event in bracket.start(on: camera).events {
///     if case .exposing(let frame, let setting?) = event { print("frame \(frame) at \(setting)") }
/// }
/// ```
public struct ExposureBracket: Sendable, AutomationWork {
    /// The setting a bracket steps.
    public enum Setting: String, Sendable, CaseIterable {
        /// The shutter speed: for the manual and shutter-priority modes.
        case shutterSpeed
        /// The exposure compensation: for the program, aperture-priority and shutter-priority modes.
        case exposureCompensation
    }

    /// The setting to step.
    public var setting: Setting
    /// How many pictures to take, an odd number from 3 to 15 so the current value is in the middle.
    public var shots: Int
    /// How far apart the pictures' exposures are.
    public var step: ExposureStops
    /// Where to save each picture's files; `nil` leaves them on the camera's card.
    public var directory: String?
    /// How long to wait for the camera to report a picture's file.
    public var fileTimeout: Duration

    /// Creates a bracket.
    public init(
        setting: Setting, shots: Int = 3, step: ExposureStops = ExposureStops(wholeStops: 1),
        directory: String? = nil, fileTimeout: Duration = .seconds(30)
    ) {
        self.setting = setting
        self.shots = shots
        self.step = step
        self.directory = directory
        self.fileTimeout = fileTimeout
    }

    /// Starts the bracket on `camera`.
    ///
    /// The events throw `ViewfinderError/Code/invalidArgument` for a shot count or step out of range, or a bracket
    /// wider than the camera's values; `ViewfinderError/Code/notAvailable` when the camera does not report the
    /// setting or cannot take pictures; and what the camera answered.
    public func start(on camera: any Camera) -> AutomationRun {
        started(on: camera)
    }

    func run(on camera: any Camera, report: @escaping @Sendable (AutomationEvent) -> Void) async throws {
        switch setting {
        case .shutterSpeed:
            try await run(camera.property(for: .shutterSpeed), of: camera, report: report) { $0.stopsFromOneSecond }
        case .exposureCompensation:
            try await run(camera.property(for: .exposureCompensation), of: camera, report: report) { $0.stops }
        }
    }

    /// The exposure offsets of the shots in steps, in the order they are taken (0, −1, +1, −2, +2 and so on).
    var offsets: [Int] {
        [0] + (1...max(1, shots / 2)).flatMap { [-$0, $0] }.prefix(shots - 1)
    }

    /// The index in `values` of each shot's value: the value nearest each offset from `current`, where every value is
    /// given as its exposure in stops (more is brighter).
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` when an offset lies beyond the values by more than a sixth
    ///   of a stop.
    func plan(current: ExposureStops, values: [ExposureStops], describe: (Int) -> String) throws -> [Int] {
        guard let lowest = values.min(), let highest = values.max() else {
            throw ViewfinderError(.notAvailable, "the camera offers no \(setting.displayName) values to bracket with")
        }
        let slack = ExposureStops(sixths: 1)
        return try offsets.map { offset in
            let target = current + ExposureStops(sixths: step.sixths * offset)
            guard target >= lowest - slack, target <= highest + slack else {
                let ends = values.indices.filter { values[$0] == lowest || values[$0] == highest }.map(describe)
                throw ViewfinderError(
                    .invalidArgument,
                    "a bracket of \(shots) shots \(step) stop apart around \(describe(closest(to: current, in: values))) "
                        + "goes beyond the camera's \(setting.displayName) values, which end at "
                        + ends.joined(separator: " and "))
            }
            return closest(to: target, in: values)
        }
    }

    private func closest(to target: ExposureStops, in values: [ExposureStops]) -> Int {
        values.indices.min { abs(values[$0].sixths - target.sixths) < abs(values[$1].sixths - target.sixths) } ?? 0
    }

    private func run<Value>(
        _ property: TypedCameraProperty<Value>, of camera: any Camera,
        report: @escaping @Sendable (AutomationEvent) -> Void, stops: (Value) -> ExposureStops?
    ) async throws {
        guard shots % 2 == 1, (3...15).contains(shots) else {
            throw ViewfinderError(.invalidArgument, "a bracket takes an odd number of shots from 3 to 15, not \(shots)")
        }
        guard step > .zero, step <= ExposureStops(wholeStops: 3) else {
            throw ViewfinderError(.invalidArgument, "a bracket's step is above 0 and at most 3 stops, not \(step)")
        }
        guard let original = property.currentValue, let current = original.commonValue.flatMap(stops) else {
            throw ViewfinderError(
                .notAvailable,
                "the camera does not report its \(setting.displayName) as a timed value, so it cannot be bracketed")
        }
        let candidates = property.validSettableValues.compactMap { value in
            value.commonValue.flatMap(stops).map { (value, $0) }
        }
        let plan = try plan(current: current, values: candidates.map(\.1)) { candidates[$0].0.localizedDisplayValue }
        var taker = try FrameTaker(camera: camera, directory: directory, fileTimeout: fileTimeout)
        defer { taker.finish() }
        do {
            for (number, index) in plan.enumerated() {
                let value = candidates[index].0
                if property.currentValue != value {
                    try await property.setValue(value)
                }
                try await taker.take(frame: number + 1, setting: value.localizedDisplayValue, report: report)
            }
        } catch {
            if (try? await uncancelled({ try await property.setValue(original) })) != nil {
                report(.restored(setting: original.localizedDisplayValue))
            }
            throw error
        }
        try await property.setValue(original)
        report(.restored(setting: original.localizedDisplayValue))
    }
}

extension ExposureBracket.Setting {
    /// The setting's name in messages.
    var displayName: String {
        switch self {
        case .shutterSpeed: "shutter speed"
        case .exposureCompensation: "exposure compensation"
        }
    }
}
