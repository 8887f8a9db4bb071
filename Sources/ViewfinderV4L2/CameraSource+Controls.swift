import CV4L2
import ViewfinderCore

/// The identifiers of the standard camera controls Viewfinder names.
public enum V4L2ControlID {
    /// Picture brightness (`V4L2_CID_BRIGHTNESS`).
    public static let brightness = UInt32(V4L2_CID_BRIGHTNESS)
    /// Picture contrast (`V4L2_CID_CONTRAST`).
    public static let contrast = UInt32(V4L2_CID_CONTRAST)
    /// Colour saturation (`V4L2_CID_SATURATION`).
    public static let saturation = UInt32(V4L2_CID_SATURATION)
    /// Hue (`V4L2_CID_HUE`).
    public static let hue = UInt32(V4L2_CID_HUE)
    /// Gain (`V4L2_CID_GAIN`).
    public static let gain = UInt32(V4L2_CID_GAIN)
    /// Automatic gain on or off (`V4L2_CID_AUTOGAIN`).
    public static let automaticGain = UInt32(V4L2_CID_AUTOGAIN)
    /// Exposure in the driver's own units (`V4L2_CID_EXPOSURE`).
    public static let exposure = UInt32(V4L2_CID_EXPOSURE)
    /// Exposure time in units of 100 µs (`V4L2_CID_EXPOSURE_ABSOLUTE`).
    public static let exposureTime = UInt32(V4L2_CID_EXPOSURE_ABSOLUTE)
    /// Exposure mode: manual, automatic, shutter or aperture priority (`V4L2_CID_EXPOSURE_AUTO`).
    public static let exposureMode = UInt32(V4L2_CID_EXPOSURE_AUTO)
    /// White balance colour temperature in kelvin (`V4L2_CID_WHITE_BALANCE_TEMPERATURE`).
    public static let whiteBalanceTemperature = UInt32(V4L2_CID_WHITE_BALANCE_TEMPERATURE)
    /// Automatic white balance on or off (`V4L2_CID_AUTO_WHITE_BALANCE`).
    public static let automaticWhiteBalance = UInt32(V4L2_CID_AUTO_WHITE_BALANCE)
    /// Where the camera faces, a read-only menu: front, back or external (`V4L2_CID_CAMERA_ORIENTATION`).
    public static let cameraOrientation = UInt32(V4L2_CID_CAMERA_ORIENTATION)
}

extension CameraSource {
    /// Every control a device offers, with its type, range, default and menu entries.
    public static func controls(for device: CaptureDevice) throws(ViewfinderError) -> [V4L2ControlInfo] {
        do {
            return try V4L2Device(path: device.path).controls()
        } catch {
            throw error.viewfinderError
        }
    }

    /// The current value of an integer, boolean or menu control of a device.
    public static func value(ofControl id: UInt32, on device: CaptureDevice) throws(ViewfinderError) -> Int32 {
        do {
            return try V4L2Device(path: device.path).value(ofControl: id)
        } catch {
            throw error.viewfinderError
        }
    }

    /// Sets an integer, boolean, menu or button control of a device and returns the value the driver kept.
    ///
    /// Controls belong to the device, so this works whether or not a source is capturing from it.
    @discardableResult
    public static func setValue(_ value: Int32, ofControl id: UInt32, on device: CaptureDevice) throws(ViewfinderError)
        -> Int32
    {
        do {
            return try V4L2Device(path: device.path).setValue(value, ofControl: id)
        } catch {
            throw error.viewfinderError
        }
    }
}
