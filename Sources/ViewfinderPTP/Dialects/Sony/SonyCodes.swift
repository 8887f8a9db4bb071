/// Sony's operation codes (vendor extension 0x11, "Sony PTP Extensions"), which mean what they say only on a Sony:
/// 0x9201 to 0x9203 are Nikon's live view operations on a Nikon.
extension PTPOperationCode {
    /// SDIO Connect(phase, 0, 0): a step of the connection's handshake, phases 1, 2 and 3; its data phase holds eight
    /// bytes the computer reads and ignores.
    public static let sonySDIOConnect = PTPOperationCode(0x9201, vendorName: "Sony SDIOConnect")
    /// SDIO GetExtDeviceInfo(version, 1): the protocol version the camera speaks (200 or 300) and the codes of its
    /// properties and controls, as `[u16 version][u32 count][u16 codes][u32 count][u16 codes]`.
    public static let sonyGetExtDeviceInfo = PTPOperationCode(0x9202, vendorName: "Sony GetExtDeviceInfo")
    /// SDIO SetExtDevicePropValue(property), "SetControlDeviceA": sets a property to the value in the data phase.
    public static let sonySetExtDevicePropValue = PTPOperationCode(0x9205, vendorName: "Sony SetExtDevicePropValue")
    /// SDIO ControlDevice(control), "SetControlDeviceB": presses or releases a button (a UINT16, 2 pressed, 1 let
    /// go), or moves a property by notches (one signed byte, positive towards later values).
    public static let sonyControlDevice = PTPOperationCode(0x9207, vendorName: "Sony ControlDevice")
    /// SDIO GetAllExtDevicePropInfo, "GetAllDevicePropData": every property in one answer (``PTPSonyProperty``).
    public static let sonyGetAllExtDevicePropInfo = PTPOperationCode(
        0x9209, vendorName: "Sony GetAllExtDevicePropInfo")
    /// A housekeeping operation sent over PTP/IP, with a data-out phase: `[u32 2][u32 2][u32 0][u32 0][u8 1][u8 1]`
    /// after connecting (as Sony's own application sends it, without which some bodies list no files), 16 bytes
    /// `[u32 0][u32 5][u32 0][u32 0]` before closing, so the camera ends its side cleanly.
    public static let sonyHousekeeping = PTPOperationCode(0x9280, vendorName: "Sony 0x9280")
    /// The housekeeping operation's answer, read after each ``sonyHousekeeping``.
    public static let sonyHousekeepingResult = PTPOperationCode(0x9281, vendorName: "Sony 0x9281")
}

/// Sony's event codes.
extension PTPEventCode {
    /// ObjectAdded(handle): a file the camera added, on its card or in its memory.
    public static let sonyObjectAdded = PTPEventCode(0xC201, vendorName: "Sony ObjectAdded")
    /// ObjectRemoved(handle).
    public static let sonyObjectRemoved = PTPEventCode(0xC202, vendorName: "Sony ObjectRemoved")
    /// PropertyChanged(property): a property's value or values changed; its values are read again.
    public static let sonyPropertyChanged = PTPEventCode(0xC203, vendorName: "Sony PropertyChanged")
}

/// Sony's property and control codes: read with ``PTPOperationCode/sonyGetAllExtDevicePropInfo``, set with
/// ``PTPOperationCode/sonySetExtDevicePropValue``, moved and pressed with ``PTPOperationCode/sonyControlDevice``.
extension PTPDevicePropertyCode {
    /// ShutterSpeed (UINT32): the numerator in the high 16 bits and the denominator in the low 16 (30" is
    /// 300/10, 1/250 is 1/250); 0 is bulb.
    public static let sonyShutterSpeed = PTPDevicePropertyCode(0xD20D, vendorName: "Sony ShutterSpeed")
    /// ColorTemperature (UINT16): kelvins, for the colour-temperature white balance.
    public static let sonyColorTemperature = PTPDevicePropertyCode(0xD20F, vendorName: "Sony ColorTemperature")
    /// FocusFound (UINT8): 1 while not focused, 2 (3 on some bodies) once focused.
    public static let sonyFocusFound = PTPDevicePropertyCode(0xD213, vendorName: "Sony FocusFound")
    /// ObjectInMemory (UINT16): from 0x8000 on, pictures wait in the camera's memory at object 0xFFFFC001 (0x8001
    /// for one); below, none that may be read.
    public static let sonyObjectInMemory = PTPDevicePropertyCode(0xD215, vendorName: "Sony ObjectInMemory")
    /// BatteryLevel (INT8): percent; -1 when the camera does not know.
    public static let sonyBatteryLevel = PTPDevicePropertyCode(0xD218, vendorName: "Sony BatteryLevel")
    /// MovieRecordingState (UINT8): 0 while no movie is recorded, 1 while one is.
    public static let sonyMovieRecordingState = PTPDevicePropertyCode(
        0xD21D, vendorName: "Sony MovieRecordingState")
    /// ISO (UINT32): the ISO speed in the low 24 bits, `0xFFFFFF` automatic; the high byte 1 or 2 for multi-frame
    /// noise reduction, 0x10 for the extended range.
    public static let sonyISO = PTPDevicePropertyCode(0xD21E, vendorName: "Sony ISO")
    /// StillImageStoreDestination (UINT16): 1 the computer only, 0x11 the card and the computer, 0x10 the card.
    public static let sonyStillImageStoreDestination = PTPDevicePropertyCode(
        0xD222, vendorName: "Sony StillImageStoreDestination")
    /// ExposureCompensation (INT16): the absolute twin of ExposureBiasCompensation, EV × 1000, on bodies that
    /// take it with SetExtDevicePropValue.
    public static let sonyExposureCompensation = PTPDevicePropertyCode(
        0xD224, vendorName: "Sony ExposureCompensation")
    /// ISO2 (UINT32): the absolute twin of ISO, in its encoding, on bodies of protocol 200 that take it with
    /// SetExtDevicePropValue.
    public static let sonyISO2 = PTPDevicePropertyCode(0xD226, vendorName: "Sony ISO2")
    /// ShutterSpeed2 (UINT32): the absolute twin of ShutterSpeed on bodies of protocol 200; on bodies of protocol
    /// 300 the code means something else.
    public static let sonyShutterSpeed2 = PTPDevicePropertyCode(0xD229, vendorName: "Sony ShutterSpeed2")
    /// MediaSLOT1RemainingShots (UINT32): the pictures that fit on the card in the first slot.
    public static let sonyRemainingShots = PTPDevicePropertyCode(0xD249, vendorName: "Sony RemainingShots")
    /// PriorityMode (INT8): 1 lets the computer's settings win over the camera's dials.
    public static let sonyPriorityMode = PTPDevicePropertyCode(0xD25A, vendorName: "Sony PriorityMode")
    /// S1 (control, UINT16): the shutter button half pressed (2) or let go (1).
    public static let sonyHalfPress = PTPDevicePropertyCode(0xD2C1, vendorName: "Sony S1")
    /// S2 (control, UINT16): the shutter button fully pressed (2) or let go (1).
    public static let sonyFullPress = PTPDevicePropertyCode(0xD2C2, vendorName: "Sony S2")
    /// MovieRecButtonHold (control, UINT16): 2 starts recording a movie, 1 stops it.
    public static let sonyMovieButton = PTPDevicePropertyCode(0xD2C8, vendorName: "Sony MovieRec")
}
