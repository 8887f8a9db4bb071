/// What a ``TypedCameraProperty`` needs from the camera or device behind it: a way to send a new value.
///
/// A PTP camera, a V4L2 device and a test fake each implement this once for all their properties. The backend
/// sends the raw value and returns once the camera has taken the request; the property then waits until the camera
/// reports the new value, which the backend passes on with
/// ``TypedCameraProperty/update(currentValue:validSettableValues:)`` or its variants whenever the camera tells it of
/// a change.
///
/// ```swift
/// final class MyCamera: Camera, CameraPropertyBackend {
///     private let properties = CameraPropertyStore()
///
///     func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value> {
///         properties.property(for: identifier, backend: self)
///     }
///
///     func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
///         try await session.send(.setProperty(code(for: name), rawValue))
///     }
///
///     func cameraReportedISO(_ code: UInt16) {
///         let raw = CameraPropertyRawValue.integer(Int64(code))
///         let iso = ISOValue(Int(code)).map { TypedCameraPropertyValue($0, rawValue: raw) }
///         property(for: .iso).update(currentValue: iso ?? TypedCameraPropertyValue(unrecognizedRawValue: raw))
///     }
///     // …
/// }
/// ```
public protocol CameraPropertyBackend: AnyObject, Sendable {
    /// Sends a property's new value to the camera, returning once the camera has accepted the request.
    ///
    /// - Parameters:
    ///   - rawValue: The raw value of one of the property's valid settable values.
    ///   - name: The ``CameraPropertyIdentifier/name`` of the property.
    /// - Throws: A ``ViewfinderError`` when the camera refuses the value or cannot be reached, such as
    ///   ``ViewfinderError/Code/invalidPropertyValue``, ``ViewfinderError/Code/deviceBusy`` or
    ///   ``ViewfinderError/Code/notConnected``.
    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws

    /// Asks the camera to move a ``CameraPropertyValueSetType/stepping`` property `steps` steps up (positive) or
    /// down (negative), returning once the camera has taken the request; the property then waits for the camera to
    /// report a new value.
    ///
    /// - Throws: As ``setRawValue(_:forPropertyNamed:)``.
    func stepValue(forPropertyNamed name: String, by steps: Int) async throws
}

extension CameraPropertyBackend {
    /// Asks the camera to move a property whose values it does not list (``CameraPropertyValueSetType/stepping``)
    /// `steps` steps up (positive) or down (negative), returning once the camera has taken the request.
    ///
    /// Backends whose cameras have such properties implement this; the default throws
    /// ``ViewfinderError/Code/notAvailable``.
    public func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        throw ViewfinderError(.notAvailable, "this camera does not step \(name) up or down")
    }
}
