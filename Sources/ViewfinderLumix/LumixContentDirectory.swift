import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderHTTPMessage
import ViewfinderSystem

/// A Lumix's card as its UPnP content directory lists it.
///
/// The camera's device description (at `/Lumix/Server0/ddd` on port 60606 on real bodies, or where its SSDP
/// LOCATION says) names the content directory's control URL; where the description cannot be read or names none,
/// the control URL real bodies use, `/Server0/CDS_control` on the description's port, stands in. A SOAP Browse of
/// object 0 there is answered with DIDL-Lite items whose resources are the picture
/// (`CAM_ORG`, or `CAM_RAW`), its thumbnail (`CAM_TN`) and a large preview (`CAM_LRGTN`), each a URL to GET. A
/// resource's size is its DIDL `size` attribute, where the camera gives one (the TZ90 does not: its files' sizes are
/// known once downloaded).
enum LumixContentDirectory {
    /// A file on the card: its item, and where its picture and thumbnail are.
    struct File: Sendable, Equatable {
        /// The item, as the camera's files are shown.
        var item: CameraFileItem
        /// The URL of the file itself.
        var url: String
        /// The URL of its thumbnail, when the camera gives one.
        var thumbnailURL: String?
    }

    /// The most items asked for in one Browse.
    static let pageSize = 100

    /// The content directory's service type, any version.
    static let serviceType = "urn:schemas-upnp-org:service:ContentDirectory:"
    /// Where real bodies take a Browse, on the port of their description.
    static let usualControlPath = "/Server0/CDS_control"

    /// Where the content directory takes its Browse, as the description at `location` names it: `nil` for a
    /// description that is out of form or names no content directory with an `http://` control URL on the camera's
    /// host, which leaves the usual place to stand in.
    static func controlURL(inDescription body: [UInt8], at location: HTTPURL) -> HTTPURL? {
        guard let description = try? UPnPDeviceDescription(decoding: body),
            let control = description.controlURL(of: serviceType, describedAt: location), control.host == location.host
        else { return nil }
        return control
    }

    /// The Browse request for `count` items from `start` at `control`, as Panasonic's app sends it.
    static func browseRequest(at control: HTTPURL, start: Int, count: Int) -> (HTTPHead, [UInt8]) {
        let body = Array(
            ("<?xml version=\"1.0\" encoding=\"utf-8\"?><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" "
                + "s:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"><s:Body><u:Browse "
                + "xmlns:u=\"urn:schemas-upnp-org:service:ContentDirectory:1\" "
                + "xmlns:pana=\"urn:schemas-panasonic-com:pana\"><ObjectID>0</ObjectID>"
                + "<BrowseFlag>BrowseDirectChildren</BrowseFlag><Filter>*</Filter><StartingIndex>\(start)</StartingIndex>"
                + "<RequestedCount>\(count)</RequestedCount><SortCriteria></SortCriteria>"
                + "<pana:X_FromCP>LumixLink2.0</pana:X_FromCP></u:Browse></s:Body></s:Envelope>").utf8)
        let head = HTTPHead(
            startLine: "POST \(control.target) HTTP/1.1",
            fields: [
                .init("Host", HostPort.text(control.host, port: control.port)),
                .init("SOAPACTION", "\"urn:schemas-upnp-org:service:ContentDirectory:1#Browse\""),
                .init("Content-Type", "text/xml; charset=\"utf-8\""), .init("Content-Length", String(body.count)),
                .init("Connection", "close"), .init("User-Agent", "Viewfinder"),
            ])
        return (head, body)
    }

    /// The files in a Browse answer, and how many items it says it returned.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for an answer without a Result and NumberReturned, or XML out
    ///   of form.
    static func files(inBrowseAnswer body: [UInt8]) throws(ViewfinderError) -> (files: [File], returned: Int) {
        let envelope = try XMLElements(body, from: "the Lumix's content directory answer")
        guard let result = envelope.first("Result"),
            let returned = envelope.first("NumberReturned").flatMap({ Int($0.text) })
        else {
            throw ViewfinderError(
                .malformedData, "the Lumix's content directory answered without a Result and NumberReturned")
        }
        guard !result.text.isEmpty else { return ([], returned) }
        let didl = try XMLElements(Array(result.text.utf8), from: "the Lumix's list of files")
        var files: [File] = []
        for position in didl.positions(of: "item") {
            guard let id = didl.elements[position]["id"].flatMap({ UInt32($0) }) else { continue }
            var original: (url: String, kind: CameraFileItem.Kind, size: UInt64?)?
            var thumbnail: String?
            for resource in didl.children(of: position) where resource.name == "res" {
                let info = resource["protocolInfo"] ?? ""
                let size = resource["size"].flatMap { UInt64($0) }
                if info.contains("PANASONIC.COM_PN=CAM_RAW"), !info.contains("CAM_RAW_JPG") {
                    original = (resource.text, .rawImage, size)
                } else if info.contains("PANASONIC.COM_PN=CAM_ORG"), original == nil {
                    original = (resource.text, .jpegImage, size)
                } else if info.contains("PANASONIC.COM_PN=CAM_AVC"), original == nil {
                    original = (resource.text, .video, size)
                } else if info.contains("PANASONIC.COM_PN=CAM_TN") {
                    thumbnail = resource.text
                }
            }
            guard let original, let name = original.url.split(separator: "/").last, HTTPURL(original.url) != nil
            else { continue }
            let item = CameraFileItem(
                id: id, storageID: 1, parentID: nil, name: String(name), kind: original.kind, byteCount: original.size)
            files.append(File(item: item, url: original.url, thumbnailURL: thumbnail))
        }
        return (files, returned)
    }
}
