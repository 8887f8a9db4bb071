import ViewfinderCore

extension CanonEOSDialect {
    /// The magnifications EOS bodies offer in live view, as Zoom's parameter.
    static let liveViewZoomFactors = [1, 5, 10]

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
}
