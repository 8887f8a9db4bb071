import ViewfinderCore

extension CanonEOSDialect {
    /// The property that holds the camera's clock: UTCTime on bodies that report it, else CameraTime, both seconds
    /// since 1970 as libgphoto2's `syncdatetimeutc` and `syncdatetime` set them; `nil` when the camera reported
    /// neither.
    var clockProperty: PTPDevicePropertyCode? {
        [.canonEOSUTCTime, .canonEOSCameraTime].first(where: properties.hasReported)
    }

    /// Sets the camera's clock with SetDevicePropValueEx, then reads the events that report it.
    func updateClock(to time: CameraClockTime) async throws {
        guard let code = clockProperty else {
            throw ViewfinderError(.notAvailable, "\(connection.model) reports no clock to set")
        }
        try await properties.set(code, to: time.secondsSince1970)
        _ = try? await poll()
    }

    /// The camera's clock: the time it reported last, moved on by the time since the report arrived (EOS bodies
    /// report their clock when a client connects and when it is set, not as it ticks).
    func readClock() async throws -> CameraClockTime {
        _ = try? await poll()
        guard let code = clockProperty, let reading = properties.reading(of: code) else {
            throw ViewfinderError(.notAvailable, "\(connection.model) reports no clock")
        }
        let elapsed = MonotonicTimestamp.now().duration(since: reading.reportedAt).components.seconds
        return CameraClockTime(secondsSince1970: reading.value + elapsed)
    }
}
