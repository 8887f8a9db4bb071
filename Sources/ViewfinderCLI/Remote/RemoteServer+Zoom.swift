import Viewfinder
import ViewfinderHTTP

extension RemoteServer {
    /// `POST /api/zoom`: magnifies live view to `level`, one of the levels the camera offers by name, and moves the
    /// magnified part to `x`,`y` in the live view picture's pixels; either or both.
    func zoom(_ fields: [String: String]) throws -> HTTPResponse {
        let level = try fields["level"].map { name in
            let levels = camera.camera.liveViewZoomLevels
            guard let level = levels.first(where: { $0.description == name }) else {
                let offered = levels.isEmpty ? "none" : levels.map(\.description).joined(separator: ", ")
                throw Refusal(
                    status: "400 Bad Request",
                    message: "The field 'level' is one of the levels the camera offers (\(offered)), not '\(name)'.")
            }
            return level
        }
        let center: LiveViewPoint?
        switch (fields["x"].map { Int($0) }, fields["y"].map { Int($0) }) {
        case (nil, nil):
            center = nil
        case (let x??, let y??) where x >= 0 && y >= 0:
            center = LiveViewPoint(x: x, y: y)
        default:
            throw Refusal(
                status: "400 Bad Request", message: "The fields 'x' and 'y' are whole numbers from 0, together.")
        }
        guard level != nil || center != nil else {
            throw Refusal(status: "400 Bad Request", message: "Give the field 'level', or 'x' and 'y', or all three.")
        }
        try perform { camera in
            if let level {
                try await camera.setLiveViewZoomLevel(level)
            }
            if let center {
                try await camera.setLiveViewZoomCenter(center)
            }
        }
        camera.refresh()
        return .json(camera.current)
    }
}
