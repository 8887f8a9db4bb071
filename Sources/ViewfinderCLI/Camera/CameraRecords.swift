import Viewfinder
import ViewfinderSystem

/// A network camera as `discover` and `camera info` show it.
struct CameraRecord: Encodable {
    var manufacturer: String
    var model: String
    var serialNumber: String
    var version: String
    var host: String
    var port: Int
    var functionality: [String]

    /// The record of a connected camera.
    init(_ camera: any Camera) {
        let info = camera.deviceInfo
        manufacturer = info?.manufacturer ?? ""
        model = info?.model ?? ""
        serialNumber = info?.serialNumber ?? ""
        version = info?.version ?? ""
        if let lumix = camera as? LumixCamera {
            host = lumix.host
            port = Int(lumix.configuration.port)
        } else if let olympus = camera as? OlympusCamera {
            host = olympus.host
            port = Int(olympus.configuration.port)
        } else if let sony = camera as? SonyRemoteCamera {
            host = sony.host
            port = Int(sony.configuration.port)
        } else {
            let network = (camera as? PTPCamera)?.endpoint as? PTPIPEndpoint
            host = network?.host ?? ""
            port = Int(network?.configuration.port ?? 0)
        }
        functionality = Self.names(of: camera.supportedFunctionality)
    }

    /// The address for people: `192.168.1.1:15740`, or `[fe80::1]:15740`.
    var address: String {
        HostPort.text(host, port: port)
    }

    /// The names of what a camera can do, such as `stillCapture` and `liveView`.
    static func names(of functionality: CameraFunctionality) -> [String] {
        let names: [(CameraFunctionality, String)] = [
            (.stillCapture, "stillCapture"), (.liveView, "liveView"), (.videoRecording, "videoRecording"),
            (.fileAccess, "fileAccess"), (.fileDeletion, "fileDeletion"), (.propertyControl, "propertyControl"),
            (.directFocusDrive, "directFocusDrive"), (.heldShutter, "heldShutter"),
            (.shutterHalfPress, "shutterHalfPress"), (.clockUpdate, "clockUpdate"),
            (.liveViewZoom, "liveViewZoom"), (.powerOffOnDisconnect, "powerOffOnDisconnect"),
            (.cameraInitiatedTransfer, "cameraInitiatedTransfer"), (.focusInfo, "focusInfo"),
            (.touchAutoFocus, "touchAutoFocus"),
        ]
        return names.filter { functionality.contains($0.0) }.map(\.1)
    }

    /// The lines `discover` and `info` print: the camera, its serial number and version, and its address.
    var lines: [String] {
        [
            "\(manufacturer) \(model)", "  serial number  \(serialNumber)", "  version        \(version)",
            "  address        \(address)",
        ]
    }
}

/// A file on a camera's card as `files`, `shoot` and `download` show it.
struct CameraFileRecord: Encodable {
    /// The camera's handle of the file, which `download` takes.
    var handle: UInt32
    var name: String
    /// The file's folder on the card, such as `/DCIM/100NIKON`, when known.
    var folder: String?
    var kind: String
    /// The size; `nil` when the camera does not give it exactly (``sizeKind`` says why).
    var bytes: UInt64?
    /// What the camera gives of the size: `bytes` (in ``bytes``), `4GiBOrMore` when it says only that the file
    /// holds 4 GiB or more, `unknown` when it gives no size.
    var sizeKind: String
    var captureDate: String?
    var width: Int?
    var height: Int?
    var storage: UInt32

    init(_ item: CameraFileItem, folder: String?) {
        handle = item.id
        name = item.name
        self.folder = folder
        kind = Self.name(of: item.kind)
        bytes = item.knownByteCount
        sizeKind = item.knownByteCount != nil ? "bytes" : item.byteCount == nil ? "unknown" : "4GiBOrMore"
        captureDate = item.captureDate
        width = item.pixelSize?.width
        height = item.pixelSize?.height
        storage = item.storageID
    }

    private static func name(of kind: CameraFileItem.Kind) -> String {
        switch kind {
        case .folder: "folder"
        case .jpegImage: "jpeg"
        case .rawImage: "raw"
        case .video: "video"
        case .other: "other"
        case .undescribed: "undescribed"
        }
    }

    /// The size for people, such as `2.4 MB`; `4 GB or more` when the camera says only that, `unknown` when it
    /// gives no size.
    var size: String {
        guard kind != "undescribed" else { return "-" }
        if let bytes { return ProgressBar.bytes(Int64(clamping: bytes)) }
        return sizeKind == "unknown" ? "unknown" : "4 GB or more"
    }

    /// The file's path on the card, such as `/DCIM/100NIKON/DSC_0001.JPG`, or its name when the folder is unknown.
    var path: String {
        guard kind != "undescribed" else { return "(the camera would not describe this object)" }
        guard let folder else { return name }
        return (folder == "/" ? "" : folder) + "/" + name
    }
}
