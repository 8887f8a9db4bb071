import CV4L2

/// The kind of value a V4L2 control holds.
public enum V4L2ControlType: Hashable, Sendable {
    /// A signed integer in a range with a step.
    case integer
    /// On or off.
    case boolean
    /// One of a list of named entries.
    case menu
    /// An action with no value (writing any value triggers it).
    case button
    /// A 64-bit signed integer.
    case integer64
    /// A string.
    case string
    /// A set of bits.
    case bitmask
    /// One of a list of integer entries.
    case integerMenu
    /// A type Viewfinder does not read (compound or codec controls), with the kernel's type number.
    case other(UInt32)

    init(_ type: UInt32) {
        switch type {
        case V4L2_CTRL_TYPE_INTEGER.rawValue: self = .integer
        case V4L2_CTRL_TYPE_BOOLEAN.rawValue: self = .boolean
        case V4L2_CTRL_TYPE_MENU.rawValue: self = .menu
        case V4L2_CTRL_TYPE_BUTTON.rawValue: self = .button
        case V4L2_CTRL_TYPE_INTEGER64.rawValue: self = .integer64
        case V4L2_CTRL_TYPE_STRING.rawValue: self = .string
        case V4L2_CTRL_TYPE_BITMASK.rawValue: self = .bitmask
        case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: self = .integerMenu
        default: self = .other(type)
        }
    }
}

/// An entry of a menu control.
public struct V4L2MenuEntry: Hashable, Sendable {
    /// The value that selects the entry.
    public var index: Int64
    /// The entry's name (menus) or its number written out (integer menus).
    public var name: String
    /// The entry's number, for integer menus.
    public var value: Int64?
}

/// A control a device offers, as `VIDIOC_QUERY_EXT_CTRL` (or `VIDIOC_QUERYCTRL`) describes it.
public struct V4L2ControlInfo: Hashable, Sendable {
    /// The control identifier, such as `V4L2_CID_BRIGHTNESS`.
    public var id: UInt32
    /// The driver's name for the control.
    public var name: String
    /// The kind of value it holds.
    public var type: V4L2ControlType
    /// The smallest value.
    public var minimum: Int64
    /// The largest value.
    public var maximum: Int64
    /// The step between valid values.
    public var step: UInt64
    /// The value the driver starts with.
    public var defaultValue: Int64
    /// The `V4L2_CTRL_FLAG_*` flags.
    public var flags: UInt32
    /// The entries of a menu or integer-menu control; empty for other types.
    public var menu: [V4L2MenuEntry]

    /// Whether the control cannot be written (read-only, or disabled or inactive right now).
    public var isReadOnly: Bool {
        flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_DISABLED) != 0
    }

    /// Whether the control is inactive (for example a manual setting while its automatic switch is on).
    public var isInactive: Bool {
        flags & UInt32(V4L2_CTRL_FLAG_INACTIVE) != 0
    }

    /// Whether the control's value cannot be read, as for buttons and other write-only controls.
    var isWriteOnly: Bool {
        type == .button || flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) != 0
    }

    /// Whether the driver changes the value by itself, as it does for a gain its automatic switch controls; such
    /// changes send no control event.
    var isVolatile: Bool {
        flags & UInt32(V4L2_CTRL_FLAG_VOLATILE) != 0
    }
}

extension V4L2Device {
    /// Every control the device offers, in the driver's order, skipping control-class headings.
    package func controls() throws(V4L2Error) -> [V4L2ControlInfo] {
        var controls: [V4L2ControlInfo] = []
        let next = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
        var nextID = next
        for _ in 0..<Self.enumerationLimit {
            var query = v4l2_query_ext_ctrl()
            query.id = nextID
            do {
                try control(cv4l2_VIDIOC_QUERY_EXT_CTRL, "VIDIOC_QUERY_EXT_CTRL", &query)
            } catch  where error.code == .invalidArgument {
                break
            }
            nextID = query.id | next
            guard query.type != V4L2_CTRL_TYPE_CTRL_CLASS.rawValue else { continue }
            controls.append(try info(from: query))
        }
        return controls
    }

    /// The control with identifier `id`, as the driver describes it now (`VIDIOC_QUERY_EXT_CTRL`).
    package func control(_ id: UInt32) throws(V4L2Error) -> V4L2ControlInfo {
        var query = v4l2_query_ext_ctrl()
        query.id = id
        try control(cv4l2_VIDIOC_QUERY_EXT_CTRL, "VIDIOC_QUERY_EXT_CTRL", &query)
        return try info(from: query)
    }

    /// Describes a queried control, with its menu entries.
    private func info(from query: v4l2_query_ext_ctrl) throws(V4L2Error) -> V4L2ControlInfo {
        var info = V4L2ControlInfo(
            id: query.id,
            name: V4L2Capability.string(query.name),
            type: V4L2ControlType(query.type),
            minimum: query.minimum,
            maximum: query.maximum,
            step: query.step,
            defaultValue: query.default_value,
            flags: query.flags,
            menu: []
        )
        if info.type == .menu || info.type == .integerMenu {
            info.menu = try menuEntries(of: info)
        }
        return info
    }

    /// The entries of a menu control; indexes the driver skips (`EINVAL`) are left out.
    func menuEntries(of info: V4L2ControlInfo) throws(V4L2Error) -> [V4L2MenuEntry] {
        guard info.minimum >= 0, info.maximum >= info.minimum, info.maximum - info.minimum < 256,
            info.maximum <= Int64(UInt32.max)
        else { return [] }
        var entries: [V4L2MenuEntry] = []
        for index in info.minimum...info.maximum {
            var query = v4l2_querymenu()
            query.id = info.id
            query.index = UInt32(index)
            do {
                try control(cv4l2_VIDIOC_QUERYMENU, "VIDIOC_QUERYMENU", &query)
            } catch  where error.code == .invalidArgument {
                continue
            }
            if info.type == .integerMenu {
                let value = cv4l2_querymenu_value(&query)
                entries.append(V4L2MenuEntry(index: index, name: String(value), value: value))
            } else {
                entries.append(
                    V4L2MenuEntry(index: index, name: String(cString: cv4l2_querymenu_name(&query)), value: nil))
            }
        }
        return entries
    }

    /// The current value of an integer, boolean or menu control (`VIDIOC_G_CTRL`).
    package func value(ofControl id: UInt32) throws(V4L2Error) -> Int32 {
        var value = v4l2_control(id: id, value: 0)
        try control(cv4l2_VIDIOC_G_CTRL, "VIDIOC_G_CTRL", &value)
        return value.value
    }

    /// Sets an integer, boolean, menu or button control (`VIDIOC_S_CTRL`) and returns the value the driver kept.
    @discardableResult
    package func setValue(_ newValue: Int32, ofControl id: UInt32) throws(V4L2Error) -> Int32 {
        var value = v4l2_control(id: id, value: newValue)
        try control(cv4l2_VIDIOC_S_CTRL, "VIDIOC_S_CTRL", &value)
        return value.value
    }
}

extension V4L2Device {
    /// Asks for a `V4L2_EVENT_CTRL` event on this descriptor whenever the control's value, flags or range change,
    /// changes made through this descriptor included (`VIDIOC_SUBSCRIBE_EVENT`).
    package func subscribeToChanges(ofControl id: UInt32) throws(V4L2Error) {
        var subscription = v4l2_event_subscription()
        subscription.type = UInt32(V4L2_EVENT_CTRL)
        subscription.id = id
        subscription.flags = UInt32(V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK)
        try control(cv4l2_VIDIOC_SUBSCRIBE_EVENT, "VIDIOC_SUBSCRIBE_EVENT", &subscription)
    }

    /// The identifiers of the controls named by every control event waiting on this descriptor (`VIDIOC_DQEVENT`),
    /// in order, without repeats.
    package func dequeueControlEvents() throws(V4L2Error) -> [UInt32] {
        var changed: [UInt32] = []
        for _ in 0..<Self.enumerationLimit {
            var event = v4l2_event()
            do {
                try control(cv4l2_VIDIOC_DQEVENT, "VIDIOC_DQEVENT", &event)
            } catch  where error.code == .noSuchFile {
                break  // ENOENT: no event is waiting.
            }
            if event.type == UInt32(V4L2_EVENT_CTRL) && !changed.contains(event.id) {
                changed.append(event.id)
            }
        }
        return changed
    }
}
