import ViewfinderCore

/// Many cameras driven as one: connected together, set together, fired together, their pictures collected and their
/// live views watched side by side.
///
/// A rig holds cameras of any transport. Each operation runs on every camera at once, each camera within its own
/// time limit, and returns a ``RigReport`` with every camera's outcome: one camera failing or going away never stops
/// the others.
///
/// ```swift
/// let rig = try CameraRig(members: hosts.enumerated().map { index, host in
///     RigMember(name: "cam\(index)", camera: PTPCamera(host: host))
/// })
/// let connected = await rig.connect(timeout: .seconds(10))
/// _ = await rig.setValue(.iso400, for: .iso)
/// let pictures = await rig.capturePictures(into: "/srv/shots/take-1")
/// for picture in pictures.successes { print(picture.value.path) }
/// await rig.disconnect()
/// ```
///
/// Every member may be called from any task or thread; none needs a run loop.
public final class CameraRig: Sendable {
    /// The rig's cameras, in the order reports list them.
    public let members: [RigMember]

    /// Creates a rig.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for no cameras, the same camera twice, a name used twice or
    ///   a name that cannot be part of a file name (see ``RigMember/init(name:camera:)``).
    public init(members: [RigMember]) throws {
        guard !members.isEmpty else {
            throw ViewfinderError(.invalidArgument, "a rig needs at least one camera")
        }
        var names: Set<String> = []
        var cameras: Set<ObjectIdentifier> = []
        for member in members {
            guard RigMember.isValidName(member.name) else {
                throw ViewfinderError(
                    .invalidArgument,
                    "'\(member.name)' cannot name a camera of a rig: use up to 64 letters, digits, '-', '_' and '.'")
            }
            guard names.insert(member.name).inserted else {
                throw ViewfinderError(.invalidArgument, "two cameras of the rig are named '\(member.name)'")
            }
            guard cameras.insert(ObjectIdentifier(member.camera)).inserted else {
                throw ViewfinderError(.invalidArgument, "camera '\(member.name)' is in the rig twice")
            }
        }
        self.members = members
    }

    /// Connects every camera that is not connected yet.
    ///
    /// - Parameter timeout: How long each camera may take.
    /// - Returns: Each camera's outcome; a camera that was connected already succeeds at once.
    public func connect(timeout: Duration = .seconds(15)) async -> RigReport<Void> {
        await perform("connect", timeout: timeout) { member, _ in
            try await member.camera.connect()
        }
    }

    /// Disconnects every camera.
    ///
    /// - Parameter timeout: How long each camera may take.
    @discardableResult
    public func disconnect(timeout: Duration = .seconds(5)) async -> RigReport<Void> {
        await perform("disconnect", timeout: timeout) { member, _ in
            try await member.camera.disconnect()
        }
    }

    /// Sets a property to the same value on every camera.
    ///
    /// ```swift
    /// let report = await rig.setValue(ISOValue.iso800, for: .iso)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value each camera is given.
    ///   - identifier: The property.
    ///   - timeout: How long each camera may take.
    /// - Returns: Each camera's outcome: `ViewfinderError/Code/invalidPropertyValue` for a camera that does not
    ///   offer `value`, and what the camera answered otherwise.
    public func setValue<Value: CameraPropertyValue>(
        _ value: Value, for identifier: CameraPropertyIdentifier<Value>, timeout: Duration = .seconds(10)
    ) async -> RigReport<Void> {
        await perform("set \(identifier.localizedDisplayName)", timeout: timeout) { member, _ in
            try await member.camera.property(for: identifier).setValue(value)
        }
    }

    /// Runs `part` for every camera at once, each within `timeout`, and reports every outcome in the rig's order.
    ///
    /// For work of your own on every camera, such as reading a property or listing a card:
    ///
    /// ```swift
    /// let batteries = await rig.forEachCamera(doing: "read the battery", timeout: .seconds(2)) { member in
    ///     member.camera.property(for: .batteryLevel).currentValue?.localizedDisplayValue
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - what: What the part does, for error messages: "could not read the battery (camera 'cam3') within 2 s".
    ///   - timeout: How long each camera may take; when it runs out the part's task is cancelled.
    ///   - part: The work for one camera; errors other than `ViewfinderError` are reported as
    ///     `ViewfinderError/Code/io` with their description.
    public func forEachCamera<Value: Sendable>(
        doing what: String, timeout: Duration, _ part: @escaping @Sendable (RigMember) async throws -> Value
    ) async -> RigReport<Value> {
        await perform(what, timeout: timeout) { member, _ in try await part(member) }
    }

    /// Runs `part` for every camera at once, as ``forEachCamera(doing:timeout:_:)`` does.
    ///
    /// `part` gets the camera and a gate: a part that must act at the same moment as the others passes the gate
    /// first (``RigStartGate/pass(_:)``), which opens once every camera still taking part has reached it, and not
    /// before `instant` when one is given.
    func perform<Value: Sendable>(
        _ what: String, timeout: Duration, startingAt instant: ContinuousClock.Instant? = nil,
        _ part: @escaping @Sendable (RigMember, _ start: @escaping @Sendable () async -> Void) async throws -> Value
    ) async -> RigReport<Value> {
        let gate = RigStartGate(count: members.count, opensAt: instant)
        let began = ContinuousClock.now
        let outcomes = await withTaskGroup(of: (Int, RigReport<Value>.Outcome).self) { group in
            for (index, member) in members.enumerated() {
                group.addTask {
                    let result = await RigDeadline.run(timeout, doing: "\(what) (camera '\(member.name)')") {
                        try await part(member) { await gate.pass(index) }
                    }
                    gate.leave(index)
                    return (index, .init(camera: member.name, result: result, duration: began.duration(to: .now)))
                }
            }
            var outcomes: [RigReport<Value>.Outcome?] = Array(repeating: nil, count: members.count)
            for await (index, outcome) in group {
                outcomes[index] = outcome
            }
            return outcomes.compactMap { $0 }
        }
        return RigReport(outcomes: outcomes)
    }
}
