import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderHTTPMessage

/// What a Sony Camera Remote API body's device description says: its name and where each service takes calls.
package struct SonyRemoteDescription: Sendable, Equatable {
    /// The camera's name, such as `ILCE-6000`.
    package var friendlyName: String
    /// The API version, such as `1.0`.
    package var version: String
    /// Each service's action list URL by the service's name (`camera`, `system`, `avContent`).
    package var actionListURLs: [String: String]

    /// The URL calls to `service` go to: its action list URL with the service's name appended.
    package func serviceURL(_ service: String) -> HTTPURL? {
        guard let base = actionListURLs[service] else { return nil }
        return HTTPURL((base.hasSuffix("/") ? base : base + "/") + service)
    }

    /// Reads a device description.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for XML out of form, or a description that names no `camera`
    ///   service: the device is no Camera Remote API body.
    package init(parsing bytes: [UInt8], from source: String) throws(ViewfinderError) {
        let document = try XMLElements(bytes, from: source, maximumLength: 1 << 20)
        friendlyName = document.first("friendlyName")?.text ?? ""
        version = document.first("X_ScalarWebAPI_Version")?.text ?? ""
        var urls: [String: String] = [:]
        for position in document.positions(of: "X_ScalarWebAPI_Service") {
            let children = document.children(of: position)
            guard let type = children.first(where: { $0.name == "X_ScalarWebAPI_ServiceType" })?.text,
                let url = children.first(where: { $0.name == "X_ScalarWebAPI_ActionList_URL" })?.text
            else { continue }
            urls[type] = url
        }
        actionListURLs = urls
        guard let url = urls["camera"], HTTPURL(url + "/camera") != nil else {
            throw ViewfinderError(
                .malformedData,
                "\(source) names no camera service with an http URL: the device is no Sony Camera Remote API body")
        }
    }
}
