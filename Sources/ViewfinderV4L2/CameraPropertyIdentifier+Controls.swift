import ViewfinderCore

extension CameraPropertyIdentifier where Value == CameraControlValue {
    /// Picture brightness (`V4L2_CID_BRIGHTNESS`).
    public static var brightness: Self { Self(name: "brightness", localizedDisplayName: "Brightness") }
    /// Picture contrast (`V4L2_CID_CONTRAST`).
    public static var contrast: Self { Self(name: "contrast", localizedDisplayName: "Contrast") }
    /// Colour saturation (`V4L2_CID_SATURATION`).
    public static var saturation: Self { Self(name: "saturation", localizedDisplayName: "Saturation") }
    /// Hue (`V4L2_CID_HUE`).
    public static var hue: Self { Self(name: "hue", localizedDisplayName: "Hue") }
    /// Gain (`V4L2_CID_GAIN`); read-only while ``automaticGain`` is on, on drivers that say so.
    public static var gain: Self { Self(name: "gain", localizedDisplayName: "Gain") }
    /// Automatic gain, on or off (`V4L2_CID_AUTOGAIN`).
    public static var automaticGain: Self { Self(name: "automaticGain", localizedDisplayName: "Automatic Gain") }
    /// Exposure in the driver's own units (`V4L2_CID_EXPOSURE`).
    public static var exposure: Self { Self(name: "exposure", localizedDisplayName: "Exposure") }
    /// Exposure time in units of 100 µs (`V4L2_CID_EXPOSURE_ABSOLUTE`); read-only while ``exposureMode`` is
    /// automatic, on drivers that say so.
    public static var exposureTime: Self { Self(name: "exposureTime", localizedDisplayName: "Exposure Time") }
    /// Exposure mode, a menu such as manual, automatic, shutter or aperture priority (`V4L2_CID_EXPOSURE_AUTO`).
    public static var exposureMode: Self { Self(name: "exposureMode", localizedDisplayName: "Exposure Mode") }
    /// White balance colour temperature in kelvin (`V4L2_CID_WHITE_BALANCE_TEMPERATURE`); read-only while
    /// ``automaticWhiteBalance`` is on, on drivers that say so.
    public static var whiteBalanceTemperature: Self {
        Self(name: "whiteBalanceTemperature", localizedDisplayName: "White Balance Temperature")
    }
    /// Automatic white balance, on or off (`V4L2_CID_AUTO_WHITE_BALANCE`).
    public static var automaticWhiteBalance: Self {
        Self(name: "automaticWhiteBalance", localizedDisplayName: "Automatic White Balance")
    }

    /// The identifier of a device control: the standard one above for a standard control, otherwise one named
    /// `v4l2-control-` and the control's hexadecimal identifier, shown with the driver's name for the control.
    ///
    /// ```swift
    /// for control in controls.controls {
    ///     let property = controls.property(for: .control(control))
    ///     print(control.name, property.currentValue?.localizedDisplayValue ?? "-")
    /// }
    /// ```
    public static func control(_ control: V4L2ControlInfo) -> Self {
        if let standard = standardControls.first(where: { $0.id == control.id }) {
            return standard.identifier
        }
        return Self(name: "v4l2-control-0x" + String(control.id, radix: 16), localizedDisplayName: control.name)
    }

    /// The standard controls Viewfinder names, with their V4L2 identifiers.
    static var standardControls: [(identifier: Self, id: UInt32)] {
        [
            (.brightness, V4L2ControlID.brightness), (.contrast, V4L2ControlID.contrast),
            (.saturation, V4L2ControlID.saturation), (.hue, V4L2ControlID.hue), (.gain, V4L2ControlID.gain),
            (.automaticGain, V4L2ControlID.automaticGain), (.exposure, V4L2ControlID.exposure),
            (.exposureTime, V4L2ControlID.exposureTime), (.exposureMode, V4L2ControlID.exposureMode),
            (.whiteBalanceTemperature, V4L2ControlID.whiteBalanceTemperature),
            (.automaticWhiteBalance, V4L2ControlID.automaticWhiteBalance),
        ]
    }
}
