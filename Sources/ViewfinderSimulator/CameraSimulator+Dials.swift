import ViewfinderCore
import ViewfinderPTP

extension CameraSimulator {
    /// Properties the camera's dials set, by the names ``turnDial(_:to:)`` takes.
    public static let dialNames: [String: PTPDevicePropertyCode] = [
        "iso": .exposureIndex, "aperture": .fNumber, "shutter": .exposureTime, "ev": .exposureBiasCompensation,
        "mode": .exposureProgramMode, "white-balance": .whiteBalance, "focus": .focusMode,
    ]

    /// Sets a property on the camera itself, as its user does with a dial, and tells the connected client, as the
    /// camera does when its settings change.
    ///
    /// The value is the property's raw value, as PTP carries it: `1600` for ISO 1600, `560` for f/5.6, `40` for
    /// 1/250 s (in units of 0.1 ms), `-333` for -1/3 EV (in thousandths).
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` when the camera has no such property or does not take the
    ///   value, naming what it takes.
    public func turnDial(_ code: PTPDevicePropertyCode, to rawValue: Int64) throws(ViewfinderError) {
        let events = try simulatedCamera(for: "turn a dial").turnDial(code, to: rawValue)
        report(events)
    }

    /// A property's raw value as the camera itself holds it, as ``turnDial(_:to:)`` takes it; `nil` when the camera
    /// has no such property or it holds no number.
    public func dialValue(_ code: PTPDevicePropertyCode) -> Int64? {
        camera?.state.withLock { $0.properties[code]?.value.integerValue }
    }
}

extension SimulatedCamera {
    /// Sets a property as the camera's user does and returns the events that report it.
    func turnDial(_ code: PTPDevicePropertyCode, to rawValue: Int64) throws(ViewfinderError) -> [PTPEvent] {
        let now = CameraClock.now()
        return try state.withLock { state throws(ViewfinderError) -> [PTPEvent] in
            guard let property = state.properties[code] else {
                throw ViewfinderError(.invalidArgument, "the camera has no property \(code)")
            }
            guard let value = PTPValue(integer: rawValue, as: property.dataType),
                property.validate(value) == .ok
            else {
                throw ViewfinderError(
                    .invalidArgument,
                    "the camera's \(code) does not take \(rawValue) now; it takes \(Self.values(of: property))")
            }
            return reported(set(code, to: value, in: &state, now: now).events, in: &state)
        }
    }

    /// The raw values a property takes, for messages.
    static func values(of property: SimulatedProperty) -> String {
        guard property.isSettable else { return "none: it is read-only" }
        switch property.form {
        case .none: return "any value of its type"
        case .enumeration(let values): return values.map(\.description).joined(separator: ", ")
        case .range(let minimum, let maximum, let step): return "\(minimum) to \(maximum) in steps of \(step)"
        }
    }
}
