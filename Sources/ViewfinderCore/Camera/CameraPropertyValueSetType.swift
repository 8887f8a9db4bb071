/// How a property's valid settable values are given.
public enum CameraPropertyValueSetType: Hashable, Sendable {
    /// The property cannot be set now: it is read-only, or the camera has not reported it.
    case none
    /// A list of values the camera names one by one.
    case enumeration
    /// Every step of an integer range, such as 0 to 255 in steps of 1.
    case numericRange
    /// The camera moves the value a step up or down without listing the values, so the property is set only with
    /// ``TypedCameraProperty/increment(timeout:)`` and ``TypedCameraProperty/decrement(timeout:)``.
    case stepping
}
