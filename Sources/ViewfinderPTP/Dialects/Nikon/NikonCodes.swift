/// Nikon's operation codes (vendor extension 0x0A), which mean what they say only on a Nikon.
extension PTPOperationCode {
    /// Nikon AfDrive: focuses once; DeviceReady then answers DeviceBusy until the camera has focused.
    public static let nikonAfDrive = PTPOperationCode(0x90C1, vendorName: "Nikon AfDrive")
    /// Nikon ChangeCameraMode(mode): 1 puts the camera under the computer's control, as a bulb exposure needs.
    public static let nikonChangeCameraMode = PTPOperationCode(0x90C2, vendorName: "Nikon ChangeCameraMode")
    /// Nikon CheckEvent: the events the camera holds for the computer, as a u16 count of records of a u16 event
    /// code and one u32 parameter; Nikon bodies over USB and some over WiFi report events only this way.
    public static let nikonCheckEvent = PTPOperationCode(0x90C7, vendorName: "Nikon CheckEvent")
    /// Nikon DeviceReady: OK when the camera is ready, DeviceBusy while it is not.
    public static let nikonDeviceReady = PTPOperationCode(0x90C8, vendorName: "Nikon DeviceReady")
    /// Nikon StartLiveView.
    public static let nikonStartLiveView = PTPOperationCode(0x9201, vendorName: "Nikon StartLiveView")
    /// Nikon EndLiveView.
    public static let nikonEndLiveView = PTPOperationCode(0x9202, vendorName: "Nikon EndLiveView")
    /// Nikon GetLiveViewImg: a header followed by a JPEG frame.
    public static let nikonGetLiveViewImage = PTPOperationCode(0x9203, vendorName: "Nikon GetLiveViewImg")
    /// Nikon ChangeAfArea(x, y): moves the autofocus area to a point of the whole picture, in live view only (else
    /// NotLiveView), as libgphoto2's `changeafarea` does.
    public static let nikonChangeAfArea = PTPOperationCode(0x9205, vendorName: "Nikon ChangeAfArea")
    /// Nikon AfDriveCancel: stops an autofocus drive under way.
    public static let nikonAfDriveCancel = PTPOperationCode(0x9206, vendorName: "Nikon AfDriveCancel")
    /// Nikon MfDrive(direction, steps): moves the focus `steps` steps in live view, towards the camera (1) or towards
    /// infinity (2); DeviceReady then answers DeviceBusy until the lens has moved.
    public static let nikonMfDrive = PTPOperationCode(0x9204, vendorName: "Nikon MfDrive")
    /// Nikon InitiateCaptureRecInMedia(focus, media): releases the shutter without autofocus (`0xFFFFFFFF`) or with
    /// it (`0xFFFFFFFE`), recording to the card (0) or to the camera's memory (1); with the shutter speed at bulb the
    /// shutter stays open until TerminateCapture.
    public static let nikonInitiateCaptureRecInMedia = PTPOperationCode(
        0x9207, vendorName: "Nikon InitiateCaptureRecInMedia")
    /// Nikon TerminateCapture(0, 0): ends a bulb exposure; DeviceReady then answers DeviceBusy until the camera is
    /// ready again.
    public static let nikonTerminateCapture = PTPOperationCode(0x920C, vendorName: "Nikon TerminateCapture")
    /// Nikon StartMovieRecInCard: starts recording a movie to the card.
    public static let nikonStartMovieRecording = PTPOperationCode(0x920A, vendorName: "Nikon StartMovieRecInCard")
    /// Nikon EndMovieRec: stops recording a movie.
    public static let nikonEndMovieRecording = PTPOperationCode(0x920B, vendorName: "Nikon EndMovieRec")
}

/// Nikon's response codes.
extension PTPResponseCode {
    /// Nikon OutOfFocus: DeviceReady after AfDrive, when the camera could not focus.
    public static let nikonOutOfFocus = PTPResponseCode(0xA002, vendorName: "Nikon OutOfFocus")
    /// Nikon InvalidStatus: the camera is in a state that does not allow the operation.
    public static let nikonInvalidStatus = PTPResponseCode(0xA004, vendorName: "Nikon InvalidStatus")
    /// Nikon NotLiveView: the operation needs live view, which is not on.
    public static let nikonNotLiveView = PTPResponseCode(0xA00B, vendorName: "Nikon NotLiveView")
    /// Nikon MfDriveStepEnd: DeviceReady after MfDrive, when the lens reached the end of its travel.
    public static let nikonMfDriveStepEnd = PTPResponseCode(0xA00C, vendorName: "Nikon MfDriveStepEnd")
    /// Nikon MfDriveStepInsufficiency: DeviceReady after MfDrive, when the step was too small to move the lens.
    public static let nikonMfDriveStepInsufficiency = PTPResponseCode(
        0xA00E, vendorName: "Nikon MfDriveStepInsufficiency")
}

/// Nikon's event codes.
extension PTPEventCode {
    /// Nikon MovieRecordComplete: a movie has been written after EndMovieRec.
    public static let nikonMovieRecordComplete = PTPEventCode(0xC108, vendorName: "Nikon MovieRecordComplete")
}

/// Nikon's property codes.
extension PTPDevicePropertyCode {
    /// Nikon MovScreenSize (UInt8): the movie frame size, in codes whose meaning varies by model.
    public static let nikonMovieScreenSize = PTPDevicePropertyCode(0xD0A0, vendorName: "Nikon MovScreenSize")
    /// Nikon MovRecProhibitCondition: a bit mask (UInt32); bit 10 is set while recording.
    public static let nikonMovieRecordingProhibitCondition = PTPDevicePropertyCode(
        0xD0A4, vendorName: "Nikon MovRecProhibitCondition")
    /// Nikon LensID (UInt8): the attached lens, by the numbers libgphoto2 names; 0 unknown.
    public static let nikonLensID = PTPDevicePropertyCode(0xD0E0, vendorName: "Nikon LensID")
    /// Nikon LightMeter (Int8): the exposure indicator in twelfths of a stop.
    public static let nikonLightMeter = PTPDevicePropertyCode(0xD10A, vendorName: "Nikon LightMeter")
    /// Nikon RecordingMedia (UInt8): 0 card, 1 SDRAM.
    public static let nikonRecordingMedia = PTPDevicePropertyCode(0xD10B, vendorName: "Nikon RecordingMedia")
    /// Nikon LiveViewStatus (UInt8): 1 while live view is on.
    public static let nikonLiveViewStatus = PTPDevicePropertyCode(0xD1A2, vendorName: "Nikon LiveViewStatus")
    /// Nikon LiveViewImageZoomRatio (UInt8): how far live view is magnified, in steps whose names vary by model.
    public static let nikonLiveViewImageZoomRatio = PTPDevicePropertyCode(
        0xD1A3, vendorName: "Nikon LiveViewImageZoomRatio")
    /// Nikon LiveViewProhibitCondition: a bit mask (UInt32).
    public static let nikonLiveViewProhibitCondition = PTPDevicePropertyCode(
        0xD1A4, vendorName: "Nikon LiveViewProhibitCondition")
}
