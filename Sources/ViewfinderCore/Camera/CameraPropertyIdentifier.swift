/// Names a camera property and the type of its values, so that `camera.property(for: .iso)` is typed.
///
/// The standard identifiers are static members constrained by their value type: ``iso`` identifies a property of
/// ``ISOValue``s, ``shutterSpeed`` one of ``ShutterSpeedValue``s. Backends make identifiers of their own for
/// properties with no standard name, such as the controls of a capture device:
///
/// ```swift
/// let contrast = CameraPropertyIdentifier<CameraControlValue>(name: "contrast", localizedDisplayName: "Contrast")
/// ```
///
/// Identifiers are equal when their names are; an identifier's name is unique among those of its value type.
public struct CameraPropertyIdentifier<Value: CameraPropertyValue>: Hashable, Sendable, CustomStringConvertible {
    /// A stable name for the property, such as `"iso"`, for code and logs.
    public let name: String
    /// The property's name for people, such as "ISO" or "Shutter Speed".
    public let localizedDisplayName: String
    /// What kind of setting or reading the property is, such as ``CameraPropertyCategory/exposureSetting``.
    public let category: CameraPropertyCategory

    /// Creates an identifier.
    ///
    /// - Parameters:
    ///   - name: A stable name, unique among the identifiers of this value type.
    ///   - localizedDisplayName: The property's name for people.
    ///   - category: What kind of setting or reading the property is.
    public init(name: String, localizedDisplayName: String, category: CameraPropertyCategory = .unknown) {
        self.name = name
        self.localizedDisplayName = localizedDisplayName
        self.category = category
    }

    /// Whether two identifiers name the same property.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name
    }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }

    /// The stable name.
    public var description: String { name }
}

extension CameraPropertyIdentifier where Value == ISOValue {
    /// The sensor's sensitivity.
    public static var iso: Self { Self(name: "iso", localizedDisplayName: "ISO", category: .exposureSetting) }
}

extension CameraPropertyIdentifier where Value == ShutterSpeedValue {
    /// How long the shutter stays open.
    public static var shutterSpeed: Self {
        Self(name: "shutterSpeed", localizedDisplayName: "Shutter Speed", category: .exposureSetting)
    }
}

extension CameraPropertyIdentifier where Value == ApertureValue {
    /// The lens aperture.
    public static var aperture: Self {
        Self(name: "aperture", localizedDisplayName: "Aperture", category: .exposureSetting)
    }
}

extension CameraPropertyIdentifier where Value == ExposureCompensationValue {
    /// The exposure compensation.
    public static var exposureCompensation: Self {
        Self(name: "exposureCompensation", localizedDisplayName: "Exposure Compensation", category: .exposureSetting)
    }
}

extension CameraPropertyIdentifier where Value == WhiteBalanceValue {
    /// The white balance.
    public static var whiteBalance: Self {
        Self(name: "whiteBalance", localizedDisplayName: "White Balance", category: .imagingSetting)
    }
}

extension CameraPropertyIdentifier where Value == FocusModeValue {
    /// The focus mode.
    public static var focusMode: Self {
        Self(name: "focusMode", localizedDisplayName: "Focus Mode", category: .captureSetting)
    }
}

extension CameraPropertyIdentifier where Value == AutoExposureModeValue {
    /// The exposure mode (P, A, S, M …).
    public static var autoExposureMode: Self {
        Self(name: "autoExposureMode", localizedDisplayName: "Exposure Mode", category: .captureSetting)
    }
}

extension CameraPropertyIdentifier where Value == DriveModeValue {
    /// The drive mode.
    public static var driveMode: Self {
        Self(name: "driveMode", localizedDisplayName: "Drive Mode", category: .captureSetting)
    }
}

extension CameraPropertyIdentifier where Value == BatteryLevelValue {
    /// The battery level; read-only.
    public static var batteryLevel: Self {
        Self(name: "batteryLevel", localizedDisplayName: "Battery", category: .information)
    }
}

extension CameraPropertyIdentifier where Value == ShotsAvailableValue {
    /// How many more pictures fit on the card; read-only.
    public static var shotsAvailable: Self {
        Self(name: "shotsAvailable", localizedDisplayName: "Shots Available", category: .information)
    }
}

extension CameraPropertyIdentifier where Value == MeteringModeValue {
    /// How the camera meters the light of the scene.
    public static var meteringMode: Self {
        Self(name: "meteringMode", localizedDisplayName: "Metering Mode", category: .imagingSetting)
    }
}

extension CameraPropertyIdentifier where Value == FocalLengthValue {
    /// The focal length the lens is at; read-only.
    public static var focalLength: Self {
        Self(name: "focalLength", localizedDisplayName: "Focal Length", category: .information)
    }
}

extension CameraPropertyIdentifier where Value == ImageDestinationValue {
    /// Where the camera puts the pictures it takes: its card or the connected computer.
    public static var imageDestination: Self {
        Self(name: "imageDestination", localizedDisplayName: "Image Destination", category: .configurationSetting)
    }
}

extension CameraPropertyIdentifier where Value == ImageQualityValue {
    /// What files the camera writes for each picture: a JPEG's compression, a raw file, or both.
    public static var imageQuality: Self {
        Self(name: "imageQuality", localizedDisplayName: "Image Quality", category: .imagingSetting)
    }
}

extension CameraPropertyIdentifier where Value == ColorToneValue {
    /// How the camera renders colour and contrast: Canon's picture style.
    public static var colorTone: Self {
        Self(name: "colorTone", localizedDisplayName: "Color Tone", category: .imagingSetting)
    }
}

extension CameraPropertyIdentifier where Value == OnOffValue {
    /// Whether the camera lifts its mirror a moment before the shutter opens, so that the mirror's movement does not
    /// shake the picture.
    public static var mirrorLockupEnabled: Self {
        Self(name: "mirrorLockupEnabled", localizedDisplayName: "Mirror Lockup", category: .captureSetting)
    }

    /// Whether the lens is stopped down to the set aperture, so that live view shows the depth of field the picture
    /// will have.
    public static var depthOfFieldPreview: Self {
        Self(name: "depthOfFieldPreview", localizedDisplayName: "Depth of Field Preview", category: .captureSetting)
    }
}

extension CameraPropertyIdentifier where Value == LensNameValue {
    /// The lens on the camera, by the name the camera gives it; read-only.
    public static var lensName: Self {
        Self(name: "lensName", localizedDisplayName: "Lens", category: .information)
    }
}

extension CameraPropertyIdentifier where Value == LightMeterReadingValue {
    /// The camera's exposure indicator, in stops from what its light meter calls right; read-only.
    public static var lightMeterReading: Self {
        Self(name: "lightMeterReading", localizedDisplayName: "Light Meter Reading", category: .information)
    }
}

extension CameraPropertyIdentifier where Value == VideoRecordingFormatValue {
    /// The frame size, and frame rate, of the movies the camera records.
    public static var videoRecordingFormat: Self {
        Self(name: "videoRecordingFormat", localizedDisplayName: "Video Recording Format", category: .videoFormat)
    }
}
