import Viewfinder

extension CameraSource {
    /// Starts capture from `device` in `format` when the command line gave one, otherwise in the format the source
    /// chooses; returns the format in use.
    func startCapture(device: CaptureDevice, formatIfGiven format: VideoFormat?) async throws -> VideoFormat {
        guard let format else { return try await startCapture(device: device) }
        return try await startCapture(device: device, format: format)
    }
}
