/// A setting a camera property can take, in terms every camera shares: an ISO, a shutter speed, a white balance.
///
/// Conforming types describe what a setting means, not how a particular camera encodes it; the camera's own code
/// for a setting travels beside it in ``TypedCameraPropertyValue``. Viewfinder provides ``ISOValue``,
/// ``ShutterSpeedValue``, ``ApertureValue``, ``ExposureCompensationValue``, ``WhiteBalanceValue``,
/// ``FocusModeValue``, ``AutoExposureModeValue``, ``DriveModeValue``, ``BatteryLevelValue``,
/// ``ShotsAvailableValue``, ``MeteringModeValue``, ``FocalLengthValue``, ``ImageDestinationValue``,
/// ``ImageQualityValue``, ``ColorToneValue``, ``OnOffValue``, ``LensNameValue``, ``LightMeterReadingValue``,
/// ``VideoRecordingFormatValue`` and, for
/// device controls with no shared meaning, ``CameraControlValue``.
///
/// A type of your own needs only a display string:
///
/// ```swift
/// enum PictureStyle: CameraPropertyValue {
///     case standard, portrait, monochrome
///
///     var localizedDisplayValue: String {
///         switch self {
///         case .standard: "Standard"
///         case .portrait: "Portrait"
///         case .monochrome: "Monochrome"
///         }
///     }
/// }
/// ```
public protocol CameraPropertyValue: Hashable, Sendable, CustomStringConvertible {
    /// The value as a camera shows it to people, such as "ISO 800", "1/250", "f/5.6" or "+1⅓".
    var localizedDisplayValue: String { get }
}

extension CameraPropertyValue {
    /// The value as a camera shows it to people; the same as ``localizedDisplayValue``.
    public var description: String { localizedDisplayValue }
}
