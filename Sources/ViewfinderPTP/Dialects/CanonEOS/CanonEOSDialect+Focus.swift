import ViewfinderCore

extension CanonEOSDialect {
    /// Moves the focus one step with DriveLens, as libgphoto2's `manualfocusdrive` does: the step's size (1 to 3)
    /// towards the camera, with bit 15 set towards infinity.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` while live view is off (EOS bodies drive the lens only in live
    ///   view) or when the camera refuses the step, as it does with the lens in manual focus.
    func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws {
        if properties.value(of: .canonEOSEVFMode) != 1 {
            // Live view may have started since the last poll, which has not reported it yet.
            try await poll()
        }
        guard properties.value(of: .canonEOSEVFMode) == 1 else {
            throw ViewfinderError(
                .notAvailable, "\(connection.model) drives its focus only in live view; start live view first")
        }
        let step = Self.driveLensStep(amount, towards: direction)
        do {
            _ = try await connection.session.transaction(.canonEOSDriveLens, parameters: [step])
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            throw ViewfinderError(
                .notAvailable,
                "the camera did not drive its focus (DriveLens 0x\(String(step, radix: 16))); set the lens to "
                    + "autofocus", responseCode: error.responseCode)
        }
        // The camera reports the lens's new state in its next events.
        _ = try? await poll()
    }

    /// DriveLens's parameter: 1, 2 or 3 for a small, medium or large step, with bit 15 set towards infinity.
    static func driveLensStep(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) -> UInt32 {
        let size: UInt32 =
            switch amount {
            case .small: 1
            case .medium: 2
            case .large: 3
            }
        return direction == .towardsInfinity ? size | 0x8000 : size
    }
}
