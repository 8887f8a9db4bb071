import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The controls of one open device and their properties: reads values, follows control events and passes what
/// changed to the properties.
///
/// Properties are updated only by the event thread's ``run(wakeup:)`` (and once before it starts), so
/// updates reach each property in the order the device made them.
final class ControlMonitor: Sendable {
    typealias Property = TypedCameraProperty<CameraControlValue>

    private struct Entry {
        var info: V4L2ControlInfo
        let property: Property
    }

    private struct State {
        var device: V4L2Device?
        var entries: [UInt32: Entry] = [:]
        var order: [UInt32] = []
        var isRefreshRequested = false
        var isClosed = false
    }

    private let state: Locked<State>

    init(device: V4L2Device) {
        state = Locked(State(device: device))
    }

    /// Adds a control the device listed, with its property.
    func add(_ info: V4L2ControlInfo, property: Property) {
        state.withLock {
            $0.entries[info.id] = Entry(info: info, property: property)
            $0.order.append(info.id)
        }
    }

    /// The controls, in the driver's order, as last read.
    var controls: [V4L2ControlInfo] {
        state.withLock { state in state.order.compactMap { state.entries[$0]?.info } }
    }

    /// The open device and the control identifier of a property, to set it.
    func target(named name: String) throws(ViewfinderError) -> (V4L2Device, UInt32) {
        let (device, id, path) = state.withLock { state in
            let id = state.order.first { state.entries[$0].map { $0.property.identifier.name == name } ?? false }
            return (state.device, id, state.device?.path)
        }
        guard let device, let path else {
            throw ViewfinderError(.notConnected, "the controls are closed, or their device went away; open them again")
        }
        guard let id else { throw ViewfinderError(.notAvailable, "\(path) has no control \(name)") }
        return (device, id)
    }

    /// Marks every control to be read again at the event thread's next turn.
    func requestRefresh() {
        state.withLock { $0.isRefreshRequested = true }
    }

    /// Reads every control again if that was asked for; for a monitor without an event thread.
    func refreshIfRequested() {
        let ids = state.withLock { state -> [UInt32] in
            defer { state.isRefreshRequested = false }
            return state.isRefreshRequested ? state.order : []
        }
        refresh(ids)
    }

    /// Ends the event loop at its next turn and lets the device close.
    func close() {
        state.withLock {
            $0.isClosed = true
            $0.device = nil
        }
    }

    /// Reads the description and value of each control again and updates its property.
    func refresh(_ ids: [UInt32]) {
        guard let device = state.withLock({ $0.device }) else { return }
        for id in ids {
            guard let entry = state.withLock({ $0.entries[id] }) else { continue }
            let info = (try? device.control(id)) ?? entry.info
            let value = info.hasPlainValue && !info.isWriteOnly ? try? device.value(ofControl: id) : nil
            state.withLock { $0.entries[id]?.info = info }
            entry.property.update(currentValue: info.propertyValue(value), validSettableValues: info.settableValues)
        }
    }

    /// The event loop: waits for control events, refresh requests and, while the device has volatile controls, the
    /// next half second, to read those that are observed; returns when closed or when the device goes away.
    func run(wakeup: Wakeup) {
        while let device = state.withLock({ $0.isClosed ? nil : $0.device }) {
            // An observer can start at any time, so with volatile controls the loop looks every half second.
            let hasVolatile = state.withLock { state in state.entries.values.contains { $0.info.isVolatile } }
            var descriptors = [
                pollfd(fd: device.descriptor, events: Int16(POLLPRI), revents: 0),
                pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = device.system.poll(&descriptors, timeout: hasVolatile ? 500 : -1)
            guard ready >= 0 else { return deviceWentAway(device, code: .init(rawValue: -ready)) }
            if descriptors[1].revents != 0 { wakeup.drain() }
            var changed = ready == 0 ? observedVolatileControls() : []
            let events = descriptors[0].revents
            if events & Int16(POLLPRI) != 0 {
                do {
                    changed += try device.dequeueControlEvents()
                } catch {
                    return deviceWentAway(device, code: error.code)
                }
            } else if events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                return deviceWentAway(device, code: .noDevice)
            }
            let (all, isClosed) = state.withLock { state in
                defer { state.isRefreshRequested = false }
                return (state.isRefreshRequested ? state.order : [], state.isClosed)
            }
            if isClosed { return }
            refresh(all.isEmpty ? changed : all)
        }
    }

    /// The volatile controls whose properties have observers.
    private func observedVolatileControls() -> [UInt32] {
        state.withLock { state in
            state.order.filter { id in
                state.entries[id].map { $0.info.isVolatile && $0.property.hasObservers } ?? false
            }
        }
    }

    /// Forgets the device, so its descriptor closes, and fails every property's sets under way.
    private func deviceWentAway(_ device: V4L2Device, code: Errno) {
        let properties = state.withLock { state -> [Property] in
            guard state.device === device else { return [] }
            state.device = nil
            return state.order.compactMap { state.entries[$0]?.property }
        }
        let error = V4L2Error(operation: "VIDIOC_DQEVENT", path: device.path, code: code).viewfinderError
        for property in properties {
            property.reset(failingRequestsWith: error)
        }
    }
}
