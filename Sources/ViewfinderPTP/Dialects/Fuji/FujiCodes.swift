/// Fujifilm's operation codes (vendor extension 0x0E), with libgphoto2's names.
extension PTPOperationCode {
    /// Fuji GetDeviceInfo: every property's description in one answer, a 32-bit count, then each description after
    /// its 32-bit size (the size's own four bytes included); libgphoto2 asks for it in place of the properties a real
    /// X-T4 leaves out of its empty DeviceInfo over WiFi.
    public static let fujiGetDeviceInfo = PTPOperationCode(0x902B, vendorName: "Fuji GetDeviceInfo")
}

/// Fujifilm's property codes (vendor extension 0x0E), which mean what they say only on a Fujifilm camera; the names
/// are libgphoto2's where it has one.
extension PTPDevicePropertyCode {
    /// Fuji FilmSimulation: the film simulation, u16 1 PROVIA to 18 ETERNA Bleach Bypass.
    public static let fujiFilmSimulation = PTPDevicePropertyCode(0xD001, vendorName: "Fuji FilmSimulation")
    /// Fuji ReleaseMode: the drive mode, u16.
    public static let fujiReleaseMode = PTPDevicePropertyCode(0xD201, vendorName: "Fuji ReleaseMode")
    /// Fuji PriorityMode: who controls the camera, u16 1 the camera, 2 the computer over USB.
    public static let fujiPriorityMode = PTPDevicePropertyCode(0xD207, vendorName: "Fuji PriorityMode")
    /// The shutter's action, u16, each followed by InitiateCapture: 0x0200 press half (focus), 0x0304 press fully.
    public static let fujiCameraAction = PTPDevicePropertyCode(0xD208, vendorName: "Fuji CameraAction")
    /// Fuji AFStatus: u16 1 focusing, 2 focused, 3 failed.
    public static let fujiAFStatus = PTPDevicePropertyCode(0xD209, vendorName: "Fuji AFStatus")
    /// Fuji CurrentState: the properties that changed, a u16 count of u16 codes each with a u32 value.
    public static let fujiCurrentState = PTPDevicePropertyCode(0xD212, vendorName: "Fuji CurrentState")
    /// Fuji BatteryInfo2: a string whose first number is the battery's charge in percent, such as "100,0,0".
    public static let fujiBatteryInfo = PTPDevicePropertyCode(0xD36B, vendorName: "Fuji BatteryInfo2")
    /// Set to 1 over USB before PriorityMode, as libgphoto2 does ("PC mode"; libgphoto2 names the code
    /// LensZoomPosCaps).
    public static let fujiPCMode = PTPDevicePropertyCode(0xD38C, vendorName: "Fuji PC mode")
    /// Fuji CameraState: what the camera offers the client over WiFi, u16 (6 remote access).
    public static let fujiCameraState = PTPDevicePropertyCode(0xDF00, vendorName: "Fuji CameraState")
    /// Fuji ClientState (libgphoto2's InitSequence): what the client does over WiFi, u16 5 remote shooting, 11 the
    /// camera's pictures while remote.
    public static let fujiClientState = PTPDevicePropertyCode(0xDF01, vendorName: "Fuji ClientState")
    /// Fuji RemoteVersion (libgphoto2's AppVersion): the remote protocol's version, u32, echoed back at connect.
    public static let fujiRemoteVersion = PTPDevicePropertyCode(0xDF24, vendorName: "Fuji RemoteVersion")
    /// Fuji RemoteGetObjectVersion: the version of file access while remote, u32.
    public static let fujiRemoteGetObjectVersion = PTPDevicePropertyCode(
        0xDF25, vendorName: "Fuji RemoteGetObjectVersion")
}

/// The values of Fujifilm's own properties that the dialect writes or reads.
enum FujiCodes {
    /// CameraAction's values, each followed by InitiateCapture.
    enum Action: UInt16, FujiPropertyValue {
        /// Press the shutter half, to focus.
        case focus = 0x0200
        /// Press the shutter fully, to take the picture.
        case shoot = 0x0304
    }

    /// AFStatus's values.
    enum Focus: UInt16, FujiPropertyValue {
        /// Focusing.
        case busy = 1
        /// Focused.
        case done = 2
        /// The camera could not focus.
        case failed = 3
    }

    /// ClientState's and CameraState's values over WiFi.
    enum Client: UInt16, FujiPropertyValue {
        /// ClientState: remote shooting.
        case remote = 5
        /// CameraState: remote access, before ClientState's image view.
        case remoteAccess = 6
        /// ClientState: the camera's pictures while remote.
        case remoteImageView = 11
    }

    /// PriorityMode's values.
    enum Priority: UInt16, FujiPropertyValue {
        /// The camera controls itself.
        case camera = 1
        /// The computer controls the camera over USB.
        case usb = 2
    }

    /// RemoteGetObjectVersion as libfudge writes it.
    static let remoteGetObjectVersion: UInt32 = 5
    /// The object that holds the live view frame over USB.
    static let liveViewObject: UInt32 = 0x8000_0001
}

/// A value of one of Fujifilm's 16-bit properties.
protocol FujiPropertyValue: RawRepresentable where RawValue == UInt16 {}

extension FujiPropertyValue {
    /// The value as SetDevicePropValue sends it.
    var value: PTPValue { .uint16(rawValue) }
}
