import ViewfinderCore

extension PTPCamera {
    /// Takes one picture and returns once the camera has taken it.
    ///
    /// The picture's file then appears on the card; new-file observers (``addNewFileObserver(_:)``) hear of it.
    /// With `engageAutoFocus`, a dialect that can drive the camera's autofocus focuses first and fails when the
    /// camera cannot focus; otherwise the camera focuses as its focus mode says.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera cannot take pictures over PTP, or could not
    ///   focus, `ViewfinderError/Code/deviceBusy` while another capture is under way,
    ///   `ViewfinderError/Code/timeout` when the camera does not report the capture within
    ///   ``Configuration/captureTimeout``, or what the camera answered.
    public func invokeOneShotShutterExplicitlyEngagingAutoFocus(_ engageAutoFocus: Bool) async throws {
        let link = try requireLink(.stillCapture, for: "take a picture")
        do {
            try await link.dialect.takePicture(engagingAutoFocus: engageAutoFocus)
        } catch let error as ViewfinderError {
            throw lostSessionError(error, of: link, while: "take a picture")
        }
    }
}
