import ViewfinderCore

extension PTPSession {
    /// Reads the camera's clock from ISO 15740's DateTime property, a PTP date (``PTPDate``).
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the camera's value is not a PTP date, or what the camera
    ///   answered.
    public func dateTime() async throws -> CameraClockTime {
        let value = try await propertyValue(.dateTime, of: .string)
        guard case .string(let text) = value, let seconds = PTPDate.secondsSince1970(text) else {
            throw ViewfinderError(.malformedData, "the camera's DateTime (\(value)) is not a PTP date")
        }
        return CameraClockTime(secondsSince1970: Int64(seconds))
    }

    /// Sets the camera's clock through ISO 15740's DateTime property.
    public func setDateTime(_ time: CameraClockTime) async throws {
        try await setPropertyValue(
            .dateTime, to: .string(PTPDate.string(secondsSince1970: Int(time.secondsSince1970))))
    }
}
