import Viewfinder

/// A capture device as the `--json` outputs show it.
struct DeviceRecord: Encodable {
    var path: String
    var name: String
    var driver: String
    var bus: String
    var type: String
    var capabilities: String

    init(_ device: CaptureDevice) {
        path = device.path
        name = device.name
        driver = device.driver
        bus = device.bus
        type = "\(device.deviceType)"
        capabilities = "0x" + String(device.capabilities, radix: 16)
    }
}

/// A video format as the `--json` outputs show it.
struct FormatRecord: Encodable {
    var width: Int
    var height: Int
    var framesPerSecond: Double
    var frameInterval: String
    var pixelFormat: String
    var fourCC: String
    var format: String

    init(_ format: VideoFormat) {
        width = format.dimensions.width
        height = format.dimensions.height
        framesPerSecond = format.frameRate.framesPerSecond
        frameInterval = "\(format.frameRate.seconds)/\(format.frameRate.frames)"
        pixelFormat = FormatSpecifier.name(of: format.pixelFormat)
        fourCC = format.pixelFormat.fourCC.description
        self.format = FormatSpecifier.describe(format)
    }
}

/// A control as `controls --json` shows it.
struct ControlRecord: Encodable {
    struct MenuEntry: Encodable {
        var index: Int64
        var name: String
    }

    var key: String
    var name: String
    var id: String
    var type: String
    var minimum: Int64
    var maximum: Int64
    var step: UInt64
    var defaultValue: Int64
    var value: Int64?
    var readOnly: Bool
    var inactive: Bool
    var menu: [MenuEntry]?

    init(_ control: V4L2ControlInfo, value: Int64?) {
        key = control.key
        name = control.name
        id = "0x" + String(control.id, radix: 16)
        type = control.typeName
        minimum = control.minimum
        maximum = control.maximum
        step = control.step
        defaultValue = control.defaultValue
        self.value = value
        readOnly = control.isReadOnly
        inactive = control.isInactive
        menu = control.menu.isEmpty ? nil : control.menu.map { MenuEntry(index: $0.index, name: $0.name) }
    }
}
