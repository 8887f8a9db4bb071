import ViewfinderCore

extension CanonEOSDialect {
    /// The magnifications EOS bodies offer in live view, as Zoom's parameter.
    static let liveViewZoomFactors = [1, 5, 10]

    /// The whole picture, then five and ten times.
    var liveViewZoomLevels: [LiveViewZoomLevel] { Self.liveViewZoomFactors.map(LiveViewZoomLevel.init(zoomFactor:)) }

    /// Magnifies live view with Zoom(level), as libgphoto2's `eoszoom` does, then reads the events that follow.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` for a level other than 1, 5 or 10, before anything is sent;
    ///   ``ViewfinderError/Code/notAvailable`` when the camera refuses it, as it does with live view off.
    func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws {
        guard Self.liveViewZoomFactors.contains(level.zoomFactor) else {
            throw ViewfinderError(
                .invalidArgument,
                "\(connection.model) magnifies live view 1, 5 or 10 times, not \(level.zoomFactor) times")
        }
        do {
            _ = try await connection.session.transaction(.canonEOSZoom, parameters: [UInt32(level.zoomFactor)])
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            throw ViewfinderError(
                .notAvailable,
                "the camera did not magnify live view \(level.zoomFactor) times (Zoom); start live view first",
                responseCode: error.responseCode)
        }
        _ = try? await poll()
    }

    /// Moves the magnified part of live view with ZoomPosition(x, y), as libgphoto2's `eoszoomposition` does.
    ///
    /// Then reads the events that follow. The point is in the live view picture's pixels, the frame's coordinate
    /// space.
    ///
    /// The viewfinder data libgphoto2 reads carries no record of the magnified area, so frames show the area without
    /// a ``LiveViewGeometry/zoomRect``.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` for a point left of or above the picture, before anything
    ///   is sent; ``ViewfinderError/Code/notAvailable`` when the camera refuses it, as it does for a point outside
    ///   the picture or with live view off.
    func setLiveViewZoomCenter(_ center: LiveViewPoint) async throws {
        guard let x = UInt32(exactly: center.x), let y = UInt32(exactly: center.y) else {
            throw ViewfinderError(
                .invalidArgument, "a live view point has no negative coordinates, unlike \(center)")
        }
        do {
            _ = try await connection.session.transaction(.canonEOSZoomPosition, parameters: [x, y])
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            throw ViewfinderError(
                .notAvailable,
                "the camera did not move the magnified part of live view to \(center) (ZoomPosition); the point must "
                    + "lie in the picture, with live view on",
                responseCode: error.responseCode)
        }
        _ = try? await poll()
    }
}
