/// Canon's EOS operation codes (vendor extension 0x0B), which mean what they say only on a Canon.
extension PTPOperationCode {
    /// EOS GetStorageIDs: the storage IDs, as the standard operation gives them.
    public static let canonEOSGetStorageIDs = PTPOperationCode(0x9101, vendorName: "EOS GetStorageIDs")
    /// EOS GetStorageInfo(storage).
    public static let canonEOSGetStorageInfo = PTPOperationCode(0x9102, vendorName: "EOS GetStorageInfo")
    /// EOS GetObjectInfoEx(storage, folder, limit): a folder's objects in one answer, a fixed record each (see
    /// ``CanonEOSObjectEntry``); `0xFFFFFFFF` is the top of the storage.
    public static let canonEOSGetObjectInfoEx = PTPOperationCode(0x9109, vendorName: "EOS GetObjectInfoEx")
    /// EOS RemoteRelease: takes a picture; the first response parameter says whether it did (0) or why not.
    public static let canonEOSRemoteRelease = PTPOperationCode(0x910F, vendorName: "EOS RemoteRelease")
    /// EOS SetDevicePropValueEx: sets a property, with `[size][code][value]` as data.
    public static let canonEOSSetDevicePropValueEx = PTPOperationCode(0x9110, vendorName: "EOS SetDevicePropValueEx")
    /// EOS SetRemoteMode(mode): 1 puts the camera under remote control.
    public static let canonEOSSetRemoteMode = PTPOperationCode(0x9114, vendorName: "EOS SetRemoteMode")
    /// EOS SetEventMode(mode): 1 makes the camera queue its events for GetEvent.
    public static let canonEOSSetEventMode = PTPOperationCode(0x9115, vendorName: "EOS SetEventMode")
    /// EOS GetEvent: the events queued since the last call, as records.
    public static let canonEOSGetEvent = PTPOperationCode(0x9116, vendorName: "EOS GetEvent")
    /// EOS TransferComplete(object): a file the camera asked to transfer has been read.
    public static let canonEOSTransferComplete = PTPOperationCode(0x9117, vendorName: "EOS TransferComplete")
    /// EOS PCHDDCapacity(free, cluster, 1): the space the computer has for pictures taken to it.
    public static let canonEOSPCHDDCapacity = PTPOperationCode(0x911A, vendorName: "EOS PCHDDCapacity")
    /// EOS SetUILock: locks the camera's own controls.
    public static let canonEOSSetUILock = PTPOperationCode(0x911B, vendorName: "EOS SetUILock")
    /// EOS ResetUILock: unlocks the camera's own controls.
    public static let canonEOSResetUILock = PTPOperationCode(0x911C, vendorName: "EOS ResetUILock")
    /// EOS KeepDeviceOn: keeps the camera from switching itself off.
    public static let canonEOSKeepDeviceOn = PTPOperationCode(0x911D, vendorName: "EOS KeepDeviceOn")
    /// EOS RemoteReleaseOn(button, 0): presses the shutter button half (1) or fully (2).
    public static let canonEOSRemoteReleaseOn = PTPOperationCode(0x9128, vendorName: "EOS RemoteReleaseOn")
    /// EOS RemoteReleaseOff(button): lets the shutter button go from fully (2) or half (1) pressed.
    public static let canonEOSRemoteReleaseOff = PTPOperationCode(0x9129, vendorName: "EOS RemoteReleaseOff")
    /// EOS SetRequestOLCInfoGroup(mask): asks the camera to report the groups of its OLC records (shutter speed,
    /// aperture, ISO, focus and more), as bodies that report those only in OLC records need.
    public static let canonEOSSetRequestOLCInfoGroup = PTPOperationCode(
        0x913D, vendorName: "EOS SetRequestOLCInfoGroup")
    /// EOS GetViewFinderData(0x00200000, 0, 0): the live view frame, as blobs of `[length][type][data]`.
    public static let canonEOSGetViewFinderData = PTPOperationCode(0x9153, vendorName: "EOS GetViewFinderData")
    /// EOS DriveLens(step): moves the focus one step in live view, 1 to 3 (small to large) towards the camera, with
    /// bit 15 set towards infinity.
    public static let canonEOSDriveLens = PTPOperationCode(0x9155, vendorName: "EOS DriveLens")
    /// EOS Zoom(level): magnifies live view, 1 for none, 5 or 10 times.
    public static let canonEOSZoom = PTPOperationCode(0x9158, vendorName: "EOS Zoom")
    /// EOS ZoomPosition(x, y): moves the magnified area of live view to a point of the picture.
    public static let canonEOSZoomPosition = PTPOperationCode(0x9159, vendorName: "EOS ZoomPosition")
}

/// Canon's EOS response codes.
extension PTPResponseCode {
    /// EOS NotReady: live view has no frame yet.
    public static let canonEOSNotReady = PTPResponseCode(0xA102, vendorName: "EOS NotReady")
}

/// Canon's EOS property codes: read from GetEvent's records, set with SetDevicePropValueEx.
extension PTPDevicePropertyCode {
    /// EOS Aperture (UINT16): eighths of a stop from f/1 at 0x08.
    public static let canonEOSAperture = PTPDevicePropertyCode(0xD101, vendorName: "EOS Aperture")
    /// EOS ShutterSpeed (UINT16): eighths of a stop from 1 s at 0x38; 0x0C is bulb.
    public static let canonEOSShutterSpeed = PTPDevicePropertyCode(0xD102, vendorName: "EOS ShutterSpeed")
    /// EOS ISOSpeed (UINT16): eighths of a stop from ISO 100 at 0x48; 0 is automatic.
    public static let canonEOSISOSpeed = PTPDevicePropertyCode(0xD103, vendorName: "EOS ISOSpeed")
    /// EOS ExpCompensation (UINT8): signed eighths of a stop.
    public static let canonEOSExposureCompensation = PTPDevicePropertyCode(0xD104, vendorName: "EOS ExpCompensation")
    /// EOS AutoExposureMode (UINT16): 0 P, 1 Tv, 2 Av, 3 M, 4 bulb, and scene modes.
    public static let canonEOSAutoExposureMode = PTPDevicePropertyCode(0xD105, vendorName: "EOS AutoExposureMode")
    /// EOS DriveMode (UINT16).
    public static let canonEOSDriveMode = PTPDevicePropertyCode(0xD106, vendorName: "EOS DriveMode")
    /// EOS MeteringMode (UINT8): 1 spot, 3 evaluative, 4 partial, 5 centre-weighted average, and others.
    public static let canonEOSMeteringMode = PTPDevicePropertyCode(0xD107, vendorName: "EOS MeteringMode")
    /// EOS ImageFormat: the files each picture makes, packed as libgphoto2's `ptp_unpack_EOS_ImageFormat` reads them.
    public static let canonEOSImageFormat = PTPDevicePropertyCode(0xD120, vendorName: "EOS ImageFormat")
    /// EOS PictureStyle (UINT8): 0x81 to 0x88 the camera's styles, 0x21 to 0x23 the user's.
    public static let canonEOSPictureStyle = PTPDevicePropertyCode(0xD110, vendorName: "EOS PictureStyle")
    /// EOS MirrorUpSetting (UINT32): 0 off, 1 on.
    public static let canonEOSMirrorUpSetting = PTPDevicePropertyCode(0xD13A, vendorName: "EOS MirrorUpSetting")
    /// EOS DepthOfFieldPreview (UINT32): 0 off, 1 stopped down in live view.
    public static let canonEOSDepthOfFieldPreview = PTPDevicePropertyCode(
        0xD1B2, vendorName: "EOS DepthOfFieldPreview")
    /// EOS FocusMode (UINT16): 0 one shot, 1 AI servo, 2 AI focus, 3 manual.
    public static let canonEOSFocusMode = PTPDevicePropertyCode(0xD108, vendorName: "EOS FocusMode")
    /// EOS WhiteBalance (UINT8).
    public static let canonEOSWhiteBalance = PTPDevicePropertyCode(0xD109, vendorName: "EOS WhiteBalance")
    /// EOS BatteryPower (UINT16): 0 low, 5 a quarter, 1 half, 4 three quarters, 2 full.
    public static let canonEOSBatteryPower = PTPDevicePropertyCode(0xD111, vendorName: "EOS BatteryPower")
    /// EOS AvailableShots (UINT32): the pictures that fit where pictures go.
    public static let canonEOSAvailableShots = PTPDevicePropertyCode(0xD11B, vendorName: "EOS AvailableShots")
    /// The camera's clock, in seconds since 1970, set with SetDevicePropValueEx.
    public static let canonEOSCameraTime = PTPDevicePropertyCode(0xD113, vendorName: "EOS CameraTime")
    /// The camera's clock in UTC, in seconds since 1970, on newer bodies.
    public static let canonEOSUTCTime = PTPDevicePropertyCode(0xD17C, vendorName: "EOS UTCTime")
    /// EOS CaptureDestination (UINT32): where pictures go, 4 for the computer and another listed value for the card.
    public static let canonEOSCaptureDestination = PTPDevicePropertyCode(
        0xD11C, vendorName: "EOS CaptureDestination")
    /// EOS OLCInfoVersion (UINT32): the layout of the camera's OLCInfoChanged records.
    public static let canonEOSOLCInfoVersion = PTPDevicePropertyCode(0xD199, vendorName: "EOS OLCInfoVersion")
    /// EOS EVFOutputDevice (UINT16): where live view goes, a mask: 1 the camera's screen, 2 the computer.
    public static let canonEOSEVFOutputDevice = PTPDevicePropertyCode(0xD1B0, vendorName: "EOS EVFOutputDevice")
    /// EOS EVFMode (UINT16): 1 when live view is on.
    public static let canonEOSEVFMode = PTPDevicePropertyCode(0xD1B1, vendorName: "EOS EVFMode")
    /// EOS EVFRecordStatus (UINT16): 4 while a movie is recorded, 0 otherwise; set to start and stop.
    public static let canonEOSEVFRecordStatus = PTPDevicePropertyCode(0xD1B8, vendorName: "EOS EVFRecordStatus")
    /// EOS FocusInfoEx: the autofocus points, a record of its own that libgphoto2 reads as `focusinfo`, in events only.
    public static let canonEOSFocusInfoEx = PTPDevicePropertyCode(0xD1D3, vendorName: "EOS FocusInfoEx")
    /// EOS LensName (string): the attached lens's name, empty without a lens; in events only.
    public static let canonEOSLensName = PTPDevicePropertyCode(0xD1D8, vendorName: "EOS LensName")
}
