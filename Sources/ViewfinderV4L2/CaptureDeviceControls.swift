import Dispatch
import ViewfinderCore
import ViewfinderSystem

/// A capture device's controls as typed camera properties: brightness, contrast, gain, exposure, white balance and
/// every other control the driver offers, with observers, valid settable values and sets that wait until the device
/// shows the new value.
///
/// Controls belong to the device, not to a capture, so they work whether or not a ``CameraSource`` captures from it:
///
/// ```swift
/// let controls = try CaptureDeviceControls(device: device)
/// let brightness = controls.property(for: .brightness)  // a TypedCameraProperty<CameraControlValue>
/// print("brightness \(brightness.currentValue?.localizedDisplayValue ?? "-") of \(brightness.validSettableValues.count)")
///
/// // The observation ends when this token is released: keep it.
/// let token = controls.property(for: .gain).addObserver { gain, change in
///     if change.contains(.validSettableValues) {
///         print(gain.validSettableValues.isEmpty ? "gain is automatic" : "gain can be set")
///     }
/// }
/// try await controls.property(for: .automaticGain).setValue(.boolean(true))
/// try await brightness.setValue(.integer(200))  // returns once the device shows 200
/// try await brightness.increment()
/// ```
///
/// Integer controls have a stepped range of settable values, switches `On` and `Off`, menus the names of their
/// entries. A control that is read-only, disabled or inactive (as a manual gain is while automatic gain is on) has no
/// settable values until that changes. Changes made by other programs arrive through V4L2 control events, on a
/// thread of the object's own; values the driver changes by itself without an event (volatile controls, such as an
/// automatic gain) are read twice a second while their property has an observer.
///
/// Controls of 64-bit, string, bitmask and compound types are listed in ``controls`` but have no values as
/// properties. When the device goes away, every property loses its values and sets under way fail with
/// `ViewfinderError/Code/deviceRemoved`.
public final class CaptureDeviceControls: CameraPropertyBackend {
    /// The device whose controls these are.
    public let device: CaptureDevice
    private let properties: CameraPropertyStore
    private let monitor: ControlMonitor
    private let eventThread = Locked<WakeableThread?>(nil)
    private let operations = DispatchQueue(label: "viewfinder.capture-device-controls")

    /// Opens a device's controls: lists them, reads their values and starts watching for changes.
    ///
    /// - Parameters:
    ///   - device: The capture device.
    ///   - setValueTimeout: How long a set waits by default for the device to show the new value.
    /// - Throws: `ViewfinderError` when the device cannot be opened or its controls listed, such as
    ///   `ViewfinderError/Code/permissionDenied` or `ViewfinderError/Code/notFound`.
    public convenience init(device: CaptureDevice, setValueTimeout: Duration = .seconds(3)) throws(ViewfinderError) {
        try self.init(device: device, setValueTimeout: setValueTimeout, system: LinuxV4L2System())
    }

    /// Opens a device's controls through a given system-call layer (for tests with a fake device).
    package init(device: CaptureDevice, setValueTimeout: Duration, system: any V4L2System) throws(ViewfinderError) {
        let opened: V4L2Device
        let listing: [V4L2ControlInfo]
        do {
            opened = try V4L2Device(path: device.path, system: system)
            listing = try opened.controls()
        } catch {
            throw error.viewfinderError
        }
        self.device = device
        properties = CameraPropertyStore(setValueTimeout: setValueTimeout)
        monitor = ControlMonitor(device: opened)
        for info in listing {
            monitor.add(info, property: properties.property(for: .control(info), backend: self))
        }
        monitor.refresh(listing.map(\.id))
        for info in listing {
            // A driver without control events still works: sets re-read the values themselves.
            try? opened.subscribeToChanges(ofControl: info.id)
        }
        let created = try? WakeableThread(name: "v4l2-controls") { [monitor] wakeup in
            monitor.run(wakeup: wakeup)
        }
        eventThread.withLock { $0 = created }
    }

    deinit {
        close()
    }

    /// Every control the device offers, in the driver's order, as of the latest change.
    public var controls: [V4L2ControlInfo] {
        monitor.controls
    }

    /// The property of a control, the same object for every call with that identifier.
    ///
    /// Use the standard identifiers such as `ViewfinderCore/CameraPropertyIdentifier/brightness`, or
    /// `ViewfinderCore/CameraPropertyIdentifier/control(_:)` for any control of ``controls``. A property the device
    /// does not have exists too, with no value and no settable values.
    public func property(
        for identifier: CameraPropertyIdentifier<CameraControlValue>
    ) -> TypedCameraProperty<CameraControlValue> {
        properties.property(for: identifier, backend: self)
    }

    /// Stops watching the device and closes it; properties keep their last values, and later sets fail with
    /// `ViewfinderError/Code/notConnected`.
    public func close() {
        monitor.close()
        eventThread.withLock { $0 }?.stop()
    }

    /// Sets a control to a raw value of one of its valid settable values; the property waits for the device to
    /// show it.
    ///
    /// For `TypedCameraProperty`; call `TypedCameraProperty/setValue(_:timeout:)-(TypedCameraPropertyValue<Value>,_)`
    /// instead.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        let (device, id) = try monitor.target(named: name)
        guard let integer = rawValue.integerValue, let value = Int32(exactly: integer) else {
            throw ViewfinderError(
                .invalidPropertyValue, "\(rawValue) is not a value a control of \(self.device) can be set to")
        }
        let result: Result<Void, V4L2Error> = await withCheckedContinuation { continuation in
            operations.async {
                continuation.resume(
                    returning: Result { () throws(V4L2Error) in _ = try device.setValue(value, ofControl: id) })
            }
        }
        defer { requestRefresh() }
        do {
            try result.get()
        } catch {
            throw error.viewfinderError
        }
    }

    /// Has the event thread read every control again, as after a set whose effects may reach other controls.
    private func requestRefresh() {
        monitor.requestRefresh()
        if let thread = eventThread.withLock({ $0 }) {
            thread.wake()
        } else {
            monitor.refreshIfRequested()
        }
    }
}
