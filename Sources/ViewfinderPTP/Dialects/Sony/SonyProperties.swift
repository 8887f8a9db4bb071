import ViewfinderCore
import ViewfinderSystem

/// A Sony camera's properties as GetAllExtDevicePropInfo describes them: every record of the last answer, passed on
/// to the typed properties, and sets sent as the camera takes them.
///
/// One read brings every property, so a PropertyChanged event or a wait for the camera reads them all again;
/// reads run one at a time, and a read asked for while another waits to start joins it.
///
/// Bodies of protocol 300 take values directly with SetExtDevicePropValue. Bodies of protocol 200 take most
/// properties so too, but move the exposure settings (ISO, shutter speed, f-number, exposure compensation) only by
/// notches with ControlDevice, unless they list an absolute twin of the property (ISO2, ShutterSpeed2, the absolute
/// exposure compensation), which libgphoto2 2.5.30 sets directly. Such a property is set by steps
/// (``SonyStepper``) to one of the values it lists, or, when it lists none, offered as
/// `CameraPropertySettableValues.stepping`, to move with `increment()` and `decrement()`.
final class SonyProperties: Sendable {
    /// Ties a typed property to a Sony property.
    struct Binding: Sendable {
        let code: PTPDevicePropertyCode
        let name: String
        let displayName: String
        /// Whether bodies of protocol 200 move it by notches: the exposure settings.
        let isNotched: Bool
        /// The property a protocol-200 body that lists it takes this one's values in directly.
        let absoluteTwin: PTPDevicePropertyCode?
        /// A raw value as people read it, for messages.
        let describe: @Sendable (Int64) -> String
        /// Passes a record, and how it can be set, to the typed property.
        let apply: @Sendable (PTPSonyProperty?, SonySettableKind, PTPConnection) -> Void
    }

    private struct Reads {
        /// A read queued and not yet started, which a caller joins.
        var waiting: Task<Void, any Error>?
        var records: [UInt16: PTPSonyProperty] = [:]
        var hasRead = false
    }

    let connection: PTPConnection
    /// What the camera said of itself in GetExtDeviceInfo; `nil` when it refused to say.
    let extendedInfo: PTPSonyExtendedDeviceInfo?
    private let bindings: [Binding]
    private let reads = Locked(Reads())
    private let serial = SerialTasks()
    /// Called after every read with the records that changed in it.
    private let changed: @Sendable ([PTPSonyProperty]) -> Void

    init(
        connection: PTPConnection, extendedInfo: PTPSonyExtendedDeviceInfo?,
        changed: @escaping @Sendable ([PTPSonyProperty]) -> Void
    ) {
        self.connection = connection
        self.extendedInfo = extendedInfo
        bindings = Self.all
        self.changed = changed
    }

    /// Whether the camera takes exposure values directly (protocol 300 and later).
    var setsValuesDirectly: Bool { extendedInfo?.setsValuesDirectly ?? false }

    /// Whether the camera lists `code` among its properties, in its DeviceInfo or its extended information.
    func lists(_ code: PTPDevicePropertyCode) -> Bool {
        connection.deviceInfo.supports(code) || extendedInfo?.codes.properties.contains(code.rawValue) == true
    }

    // MARK: Reading

    /// Reads every property again and updates the typed properties whose records changed.
    ///
    /// - Throws: Errors that end the session, and the camera's refusal.
    func refresh() async throws {
        let task = reads.withLock { state -> Task<Void, any Error> in
            if let waiting = state.waiting { return waiting }
            let task = Task { [self] in
                try await serial.run { [self] in
                    reads.withLock { $0.waiting = nil }
                    try await readAll()
                }
            }
            state.waiting = task
            return task
        }
        try await task.value
    }

    private func readAll() async throws {
        let data = try await connection.session.dataset(.sonyGetAllExtDevicePropInfo)
        let records = try PTPSonyProperty.decodeAll(data)
        let (fresh, first) = reads.withLock { state -> ([PTPSonyProperty], Bool) in
            let fresh = records.filter { state.records[$0.code.rawValue] != $0 }
            for record in fresh { state.records[record.code.rawValue] = record }
            defer { state.hasRead = true }
            return (fresh, !state.hasRead)
        }
        let touched = Set(fresh.map(\.code.rawValue))
        for binding in bindings where first || touched.contains(binding.code.rawValue) {
            let record = self.record(binding.code)
            binding.apply(record, record.map { settableKind(of: $0, for: binding) } ?? .none, connection)
        }
        if !fresh.isEmpty { changed(fresh) }
    }

    /// The record the camera gave last for `code`.
    func record(_ code: PTPDevicePropertyCode) -> PTPSonyProperty? {
        reads.withLock { $0.records[code.rawValue] }
    }

    /// The current value the camera gave last for `code`, as an integer.
    func value(of code: PTPDevicePropertyCode) -> Int64? {
        record(code)?.currentValue.integerValue
    }

    // MARK: Settability

    /// Whether the computer may set a record's property now.
    ///
    /// Protocol 300 bodies say so in GetSet and IsEnabled. Protocol 200 bodies give GetSet 0 for properties they do
    /// take, so IsEnabled decides: enabled (1), or shown only (2) for the focus and metering modes and the exposure
    /// settings, which they report so and still move, as libgphoto2 finds.
    func isWritable(_ record: PTPSonyProperty, for binding: Binding?) -> Bool {
        if setsValuesDirectly { return record.getSet == 1 && record.isEnabled == 1 }
        switch record.isEnabled {
        case 1: return true
        case 2: return binding?.isNotched == true || [.focusMode, .exposureMeteringMode].contains(record.code)
        default: return false
        }
    }

    /// Whether the camera takes a binding's values directly rather than by notches.
    func setsDirectly(_ binding: Binding) -> Bool {
        !binding.isNotched || setsValuesDirectly || binding.absoluteTwin.map(lists) == true
    }

    private func settableKind(of record: PTPSonyProperty, for binding: Binding) -> SonySettableKind {
        guard isWritable(record, for: binding) else { return .none }
        if setsDirectly(binding) { return .listed }
        if case .enumeration(let values) = record.form, !values.isEmpty { return .listed }
        return .stepping
    }

    // MARK: Setting

    /// The binding of a typed property, and the camera's record of it.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when Viewfinder has no such property for Sony, or the camera
    ///   has not described it, or does not let it be set now.
    func writable(_ name: String) throws(ViewfinderError) -> (Binding, PTPSonyProperty) {
        guard let binding = bindings.first(where: { $0.name == name }) else {
            throw ViewfinderError(.notAvailable, "\(connection.model) has no property named \(name) over PTP")
        }
        guard let record = record(binding.code) else {
            throw ViewfinderError(.notAvailable, "\(connection.model) does not report \(binding.displayName)")
        }
        guard isWritable(record, for: binding) else {
            throw ViewfinderError(
                .notAvailable,
                "the camera does not let \(binding.displayName) be set now; its exposure mode or another setting may "
                    + "control it")
        }
        return (binding, record)
    }

    /// Sends a typed property's new value: directly with SetExtDevicePropValue, or by notches.
    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        let (binding, record) = try writable(name)
        guard let raw = rawValue.integerValue else {
            throw ViewfinderError(.invalidPropertyValue, "\(rawValue) is not a value of \(binding.displayName)")
        }
        guard setsDirectly(binding) else {
            try await SonyStepper(properties: self, binding: binding).step(to: raw)
            return
        }
        var code = binding.code
        var type = record.dataType
        if binding.isNotched, !setsValuesDirectly, let twin = binding.absoluteTwin {
            code = twin
        } else if setsValuesDirectly, binding.code == .fNumber {
            // Protocol 300 bodies take the f-number in four bytes, as libgphoto2 sends it.
            type = .uint32
        }
        guard let value = PTPValue(integer: raw, as: type) else {
            throw ViewfinderError(.invalidPropertyValue, "\(raw) is not a \(type) value for \(binding.displayName)")
        }
        try await set(code, to: value, displayName: binding.displayName)
        try await refresh()
    }

    /// Sends SetExtDevicePropValue, with the refusal in the typed property's terms.
    func set(_ code: PTPDevicePropertyCode, to value: PTPValue, displayName: String) async throws {
        do {
            try await send(.sonySetExtDevicePropValue, code, value)
        } catch let error as ViewfinderError {
            throw StandardProperties.settingError(
                connection.lostSessionError(error, while: "set \(displayName)"), name: displayName, value: "\(value)")
        }
    }

    /// Sends ControlDevice with `value` for a control or a notch property.
    func control(_ code: PTPDevicePropertyCode, _ value: PTPValue, activity: String) async throws {
        do {
            try await send(.sonyControlDevice, code, value)
        } catch let error as ViewfinderError {
            throw connection.lostSessionError(error, while: activity)
        }
    }

    /// Runs `operation` on property `code` with `value` as its data-out phase; the camera's refusal is a
    /// `protocolFailure` with its response code.
    func send(_ operation: PTPOperationCode, _ code: PTPDevicePropertyCode, _ value: PTPValue) async throws {
        var writer = PTPDataWriter(capacity: 8)
        try writer.append(value: value)
        _ = try await connection.session.transaction(
            operation, parameters: [UInt32(code.rawValue)], sending: writer.bytes)
    }

    /// Moves a property the camera steps without listing its values `steps` notches, and returns once it moved.
    func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        let (binding, _) = try writable(name)
        guard binding.isNotched, !setsDirectly(binding) else {
            throw ViewfinderError(
                .notAvailable, "\(binding.displayName) is set to a value on this camera, not moved by steps")
        }
        try await SonyStepper(properties: self, binding: binding).move(by: steps)
    }
}

/// How a Sony property can be set now.
enum SonySettableKind: Sendable {
    /// Not at all.
    case none
    /// To the values it lists (or a range's values), directly or by notches.
    case listed
    /// A notch up or down at a time: it lists no values.
    case stepping
}
