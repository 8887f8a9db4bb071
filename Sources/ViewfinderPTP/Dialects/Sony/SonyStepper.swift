import ViewfinderCore

/// Moves an exposure setting a Sony body of protocol 200 takes only by notches: ControlDevice with a signed count
/// of notches, then the property read back until the camera shows another value.
///
/// A notch up (+1) goes to the next higher place on the camera's scale: the next ISO in its list, a shorter
/// exposure, a larger f-number, more exposure compensation. To reach a value, ``step(to:)`` first asks for the
/// whole distance in one request, as libgphoto2 does (the camera moves as far as it will), and from there one
/// notch at a time, reading back after each. It stops with a clear error when the camera stops moving (no new
/// value within ``notchTimeout`` of a request), when it passes the value, or after ``maximumNotches``: a value the
/// camera lists but does not reach now (the lens, the mode) is never waited for without end.
struct SonyStepper {
    let properties: SonyProperties
    let binding: SonyProperties.Binding

    /// The most notches one set asks for, as libgphoto2 allows.
    static let maximumNotches = 100
    /// How long the camera may take to show a new value after a request, as libgphoto2 waits.
    static let notchTimeout = Duration.seconds(3)
    /// How often the property is read back while the camera moves it.
    static let readBackInterval = Duration.milliseconds(10)

    /// Steps the property to `target`, one of the values it lists, and returns once the camera shows it.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidPropertyValue`` for a value the camera does not list, or one it
    ///   moves past; ``ViewfinderError/Code/notAvailable`` when the camera stops moving or does not arrive within
    ///   ``maximumNotches``; and the errors of the transactions.
    func step(to target: Int64) async throws {
        var sent = 0
        var isFirst = true
        while true {
            let (now, listed) = try position()
            if now == target { return }
            let place = { SonyPropertyValues.notchPlace(of: binding.code, $0, among: listed) }
            guard listed.contains(target), let here = place(now), let there = place(target) else {
                throw ViewfinderError(
                    .invalidPropertyValue,
                    "\(binding.displayName) cannot be stepped from \(binding.describe(now)) to "
                        + "\(binding.describe(target)): the camera does not list both among its values now")
            }
            let places = listed.compactMap(place)
            let distance =
                there > here
                ? places.filter { $0 > here && $0 <= there }.count : -places.filter { $0 < here && $0 >= there }.count
            let move = isFirst ? max(-127, min(127, distance)) : distance.signum()
            guard move != 0, sent + abs(move) <= Self.maximumNotches else {
                throw ViewfinderError(
                    .notAvailable,
                    "\(binding.displayName) did not reach \(binding.describe(target)) in \(sent) notches; it stays at "
                        + "\(binding.describe(now))")
            }
            let arrived = try await notch(move, from: now, toward: target)
            sent += abs(move)
            isFirst = false
            if abs(move) == 1, arrived != target, let reached = place(arrived),
                move > 0 ? reached > there : reached < there
            {
                throw ViewfinderError(
                    .invalidPropertyValue,
                    "the camera moved \(binding.displayName) from \(binding.describe(now)) past "
                        + "\(binding.describe(target)) to \(binding.describe(arrived)): it does not take that value now"
                )
            }
        }
    }

    /// Moves the property `steps` notches, at most 127 either way, and returns once the camera shows another value.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera does not move it (at an end of its values).
    func move(by steps: Int) async throws {
        let (now, _) = try position()
        _ = try await notch(max(-127, min(127, steps)), from: now, toward: nil)
    }

    /// The current value and the values the property lists.
    private func position() throws(ViewfinderError) -> (Int64, [Int64]) {
        guard let record = properties.record(binding.code), let now = record.currentValue.integerValue else {
            throw ViewfinderError(.notAvailable, "the camera no longer reports \(binding.displayName)")
        }
        guard case .enumeration(let values) = record.form else { return (now, []) }
        return (now, values.compactMap(\.integerValue))
    }

    /// Sends `notches` and reads the property back until the camera shows another value than `value`.
    ///
    /// - Returns: The value the camera shows now.
    private func notch(_ notches: Int, from value: Int64, toward target: Int64?) async throws -> Int64 {
        try await properties.control(
            binding.code, .int8(Int8(notches)), activity: "move \(binding.displayName) by \(notches) notches")
        let deadline = ContinuousClock.now + Self.notchTimeout
        while true {
            try await properties.refresh()
            if let now = properties.value(of: binding.code), now != value { return now }
            guard ContinuousClock.now < deadline else {
                let goal = target.map { " and did not reach \(binding.describe($0))" } ?? ""
                throw ViewfinderError(
                    .notAvailable,
                    "the camera stopped moving \(binding.displayName) at \(binding.describe(value))\(goal): it showed "
                        + "no new value within \(Self.notchTimeout) of a request for \(notches) notch"
                        + (abs(notches) == 1 ? "" : "es")
                        + "; it may be at the end of its values, or its lens or mode may not allow more")
            }
            try await Task.sleep(for: Self.readBackInterval)
        }
    }
}
