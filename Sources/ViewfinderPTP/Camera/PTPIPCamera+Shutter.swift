import ViewfinderCore

/// A shutter release waiting for the camera's CaptureComplete event.
struct CaptureWait {
    /// Tells one capture from the next, so a late timer does not end a later capture.
    let id: UInt64
    /// The transaction of the InitiateCapture, once the camera has answered it.
    var transactionID: UInt32?
    /// CaptureComplete events that arrived before the caller began to wait.
    var completedTransactions: Set<UInt32> = []
    var continuation: CheckedContinuation<Void, any Error>?
    var timer: Task<Void, Never>?

    /// Whether a CaptureComplete for `transactionID` ends this capture; cameras that do not fill the event's
    /// transaction ID in send `0xFFFFFFFF` or 0.
    func isCompleted(by transactionID: UInt32) -> Bool {
        transactionID == self.transactionID || transactionID == 0xFFFF_FFFF || transactionID == 0
    }

    /// Resumes the caller, if it waits, and stops the timer.
    func finish(with result: Result<Void, ViewfinderError>) {
        timer?.cancel()
        continuation?.resume(with: result)
    }
}

extension PTPIPCamera {
    /// Takes one picture with InitiateCapture and returns when the camera reports the capture complete.
    ///
    /// The picture's file then appears on the card; new-file observers (``addNewFileObserver(_:)``) hear of it.
    /// PTP's InitiateCapture focuses as the camera's focus mode says: `engageAutoFocus` is accepted for the common
    /// camera API and does not change what the camera does.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot capture over PTP,
    ///   ``ViewfinderError/Code/deviceBusy`` while another capture is under way,
    ///   ``ViewfinderError/Code/timeout`` when the camera does not report the capture within
    ///   ``Configuration/captureTimeout``, or what the camera answered.
    public func invokeOneShotShutterExplicitlyEngagingAutoFocus(_ engageAutoFocus: Bool) async throws {
        let link = try requireLink(for: "take a picture")
        guard link.functionality.contains(.stillCapture) else {
            throw ViewfinderError(.notAvailable, "\(link.deviceInfo.model) does not offer InitiateCapture over PTP/IP")
        }
        let id = try state.withLock { state throws(ViewfinderError) -> UInt64 in
            guard state.capture == nil else {
                throw ViewfinderError(.deviceBusy, "a picture is being taken; wait for it before taking the next")
            }
            state.nextCaptureID += 1
            state.capture = CaptureWait(id: state.nextCaptureID)
            return state.nextCaptureID
        }
        let transactionID: UInt32
        do {
            transactionID = try await link.session.initiateCapture()
        } catch {
            state.withLock { state in
                if state.capture?.id == id { state.capture = nil }
            }
            throw Self.captureError(error)
        }
        try await waitForCapture(id, transactionID: transactionID)
    }

    private static func captureError(_ error: any Error) -> any Error {
        guard let error = error as? ViewfinderError, error.code == .protocolFailure,
            let code = error.responseCode.map(PTPResponseCode.init(rawValue:))
        else { return error }
        switch code {
        case .deviceBusy:
            return ViewfinderError(
                .deviceBusy, "the camera is busy and did not take the picture; try again shortly",
                responseCode: code.rawValue)
        case .storeFull:
            return ViewfinderError(
                .notAvailable, "the camera's card is full; free some space to take pictures",
                responseCode: code.rawValue)
        default:
            return error
        }
    }

    /// Waits for the CaptureComplete event of capture `id`, until the configured timeout.
    private func waitForCapture(_ id: UInt64, transactionID: UInt32) async throws {
        let timeout = configuration.captureTimeout
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    self?.endCapture(
                        id,
                        .failure(
                            ViewfinderError(
                                .timeout,
                                "the camera did not report the picture taken within \(timeout); check that it can "
                                    + "focus and has a card with space")))
                }
                enum Outcome { case waiting, completed, gone }
                let outcome = state.withLock { state -> Outcome in
                    guard var capture = state.capture, capture.id == id else { return .gone }
                    capture.transactionID = transactionID
                    if capture.completedTransactions.contains(where: capture.isCompleted(by:)) {
                        state.capture = nil
                        return .completed
                    }
                    capture.continuation = continuation
                    capture.timer = timer
                    state.capture = capture
                    return .waiting
                }
                switch outcome {
                case .waiting:
                    break
                case .completed:
                    timer.cancel()
                    continuation.resume()
                case .gone:
                    // Ended before the wait began, by cancellation or by the connection ending.
                    timer.cancel()
                    continuation.resume(
                        throwing: Task.isCancelled
                            ? ViewfinderError(.cancelled, "waiting for the picture was cancelled")
                            : ViewfinderError(.disconnected, "the camera went away while taking the picture"))
                }
            }
        } onCancel: {
            endCapture(id, .failure(ViewfinderError(.cancelled, "waiting for the picture was cancelled")))
        }
    }

    /// Ends capture `id`, if it is still the one under way.
    private func endCapture(_ id: UInt64, _ result: Result<Void, ViewfinderError>) {
        let capture = state.withLock { state -> CaptureWait? in
            guard let capture = state.capture, capture.id == id else { return nil }
            state.capture = nil
            return capture
        }
        capture?.finish(with: result)
    }

    /// Completes the capture a CaptureComplete event belongs to, or remembers the event for it.
    func captureCompleted(transactionID: UInt32) {
        let finished = state.withLock { state -> CaptureWait? in
            guard var capture = state.capture else { return nil }
            guard capture.transactionID != nil, capture.isCompleted(by: transactionID) else {
                capture.completedTransactions.insert(transactionID)
                state.capture = capture
                return nil
            }
            state.capture = nil
            return capture
        }
        finished?.finish(with: .success(()))
    }
}
