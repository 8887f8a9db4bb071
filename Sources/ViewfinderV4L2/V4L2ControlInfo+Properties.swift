import ViewfinderCore

extension V4L2ControlInfo {
    /// Whether the control has a value a ``CameraControlValue`` holds: an integer, a switch or a menu entry.
    var hasPlainValue: Bool {
        switch type {
        case .integer, .boolean, .menu, .integerMenu: true
        default: false
        }
    }

    /// The property value of a raw control value: the integer, `On` or `Off`, or the menu entry.
    func propertyValue(_ raw: Int32?) -> TypedCameraPropertyValue<CameraControlValue>? {
        guard let raw else { return nil }
        let index = Int64(raw)
        switch type {
        case .integer:
            return TypedCameraPropertyValue(.integer(index), rawValue: .integer(index))
        case .boolean:
            return TypedCameraPropertyValue(.boolean(raw != 0), rawValue: .integer(raw != 0 ? 1 : 0))
        case .menu, .integerMenu:
            guard let entry = menu.first(where: { $0.index == index }) else {
                return TypedCameraPropertyValue(unrecognizedRawValue: .integer(index))
            }
            let value: CameraControlValue = entry.value.map { .integer($0) } ?? .menuItem(entry.name)
            return TypedCameraPropertyValue(value, rawValue: .integer(index), localizedDisplayValue: entry.name)
        default:
            return nil
        }
    }

    /// The values the control can be set to now: none while it is read-only, disabled, inactive or has no plain
    /// value; otherwise its range, both switch positions or its menu entries.
    var settableValues: CameraPropertySettableValues<CameraControlValue> {
        guard hasPlainValue, !isReadOnly, !isInactive, !isWriteOnly else { return [] }
        switch type {
        case .integer:
            let step = Int64(clamping: max(step, 1))
            let range = try? CameraPropertySettableValues<CameraControlValue>.numericRange(
                from: minimum, through: maximum, step: step, makeValue: { .integer($0) },
                rawValueOfValue: { if case .integer(let value) = $0 { value } else { nil } })
            return range ?? []
        case .boolean:
            return CameraPropertySettableValues([0, 1].compactMap(propertyValue))
        default:
            return CameraPropertySettableValues(menu.compactMap { Int32(exactly: $0.index).flatMap(propertyValue) })
        }
    }
}
