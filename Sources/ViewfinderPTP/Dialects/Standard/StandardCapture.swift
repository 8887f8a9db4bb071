import ViewfinderCore
import ViewfinderSystem

/// Taking a picture with InitiateCapture and waiting for the camera's CaptureComplete event, for one connection.
///
/// ``takePicture()`` returns once the event for its transaction arrives (cameras that do not fill the event's
/// transaction ID in, sending `0xFFFFFFFF` or 0, complete any capture), or fails after the configured capture timeout.
/// An event that arrives before the answer to InitiateCapture is kept for it. Real cameras differ, as libgphoto2
/// knows: one that does not list CaptureComplete among its events completes a capture with the ObjectAdded of the new
/// picture (not of a new folder), and one that lists it but sends only ObjectAdded completes it
/// ``objectAddedGrace`` after that; StoreFull fails the capture at once.
final class StandardCapture: Sendable {
    /// A shutter release waiting for the camera's CaptureComplete event.
    private struct Wait {
        /// Tells one capture from the next, so a late timer does not end a later capture.
        let id: UInt64
        /// The transaction of the InitiateCapture, once the camera has answered it.
        var transactionID: UInt32?
        /// CaptureComplete events that arrived before the caller began to wait.
        var completedTransactions: Set<UInt32> = []
        /// A failure, such as StoreFull, that arrived before the caller began to wait.
        var failure: ViewfinderError?
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: Task<Void, Never>?

        func isCompleted(by transactionID: UInt32) -> Bool {
            transactionID == self.transactionID || transactionID == 0xFFFF_FFFF || transactionID == 0
        }

        /// Resumes the caller, if it waits, and stops the timer.
        func finish(with result: Result<Void, ViewfinderError>) {
            timer?.cancel()
            continuation?.resume(with: result)
        }
    }

    private struct State {
        var wait: Wait?
        var nextID: UInt64 = 0
        var ended: ViewfinderError?
    }

    private let connection: PTPConnection
    private let state = Locked(State())

    /// Creates the capture of `connection`.
    init(connection: PTPConnection) {
        self.connection = connection
    }

    /// Whether a picture is being taken: the camera has been asked and has not reported it taken.
    var isWaiting: Bool { state.withLock { $0.wait != nil } }

    /// How long a camera that lists CaptureComplete has to send it after the new picture's ObjectAdded, before the
    /// capture is taken as complete without it.
    static let objectAddedGrace = Duration.seconds(2)

    /// Whether the camera takes pictures with InitiateCapture.
    var isAvailable: Bool { connection.deviceInfo.supports(.initiateCapture) }

    /// Takes one picture with InitiateCapture and returns when the camera reports the capture complete.
    ///
    /// - Throws: ``ViewfinderError/Code/deviceBusy`` while another capture is under way,
    ///   ``ViewfinderError/Code/timeout`` when the camera does not report the capture within the capture timeout,
    ///   ``ViewfinderError/Code/notAvailable`` for a full card, or what the camera answered.
    func takePicture() async throws {
        guard isAvailable else {
            throw ViewfinderError(.notAvailable, "\(connection.model) does not offer InitiateCapture")
        }
        let connection = connection
        let capture = try await startCapture {
            try await connection.session.initiateCapture(timeout: connection.captureRequestTimeout)
        }
        try await waitForCapture(capture)
    }

    /// A capture whose request the camera has taken, to wait for with ``waitForCapture(_:)``.
    struct StartedCapture: Sendable {
        fileprivate let id: UInt64
        fileprivate let transactionID: UInt32
    }

    /// Starts a capture with `request`, which asks the camera to release the shutter and returns the transaction
    /// of the request; the events that end the capture are kept from then on for ``waitForCapture(_:)``, however long
    /// the caller takes to wait, as a held shutter does.
    ///
    /// - Throws: ``ViewfinderError/Code/deviceBusy`` while another capture is under way, or what the camera
    ///   answered the request, as ``captureError(_:connection:)`` puts it.
    func startCapture(_ request: () async throws -> UInt32) async throws -> StartedCapture {
        let id = try state.withLock { state throws(ViewfinderError) -> UInt64 in
            if let ended = state.ended { throw ended }
            guard state.wait == nil else {
                throw ViewfinderError(.deviceBusy, "a picture is being taken; wait for it before taking the next")
            }
            state.nextID += 1
            state.wait = Wait(id: state.nextID)
            return state.nextID
        }
        do {
            return StartedCapture(id: id, transactionID: try await request())
        } catch {
            abandon(id)
            throw Self.captureError(error, connection: connection)
        }
    }

    /// Forgets a started capture that will not be waited for, so that the next can start.
    func abandon(_ capture: StartedCapture) {
        abandon(capture.id)
    }

    private func abandon(_ id: UInt64) {
        state.withLock { state in
            if state.wait?.id == id { state.wait = nil }
        }
    }

    /// What a refused InitiateCapture means for the caller.
    static func captureError(_ error: any Error, connection: PTPConnection) -> any Error {
        guard let error = error as? ViewfinderError else { return error }
        guard error.code == .protocolFailure, let code = error.responseCode.map(PTPResponseCode.init(rawValue:))
        else { return connection.lostSessionError(error, while: "take a picture") }
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

    /// Waits for the CaptureComplete event of a started capture, until the configured timeout.
    func waitForCapture(_ capture: StartedCapture) async throws {
        let (id, transactionID) = (capture.id, capture.transactionID)
        let timeout = connection.configuration.captureTimeout
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    self?.end(
                        id,
                        .failure(
                            ViewfinderError(
                                .timeout,
                                "the camera did not report the picture taken within \(timeout); check that it can "
                                    + "focus and has a card with space")))
                }
                enum Outcome {
                    case waiting, completed
                    case failed(ViewfinderError)
                    case gone(ViewfinderError?)
                }
                let outcome = state.withLock { state -> Outcome in
                    guard var wait = state.wait, wait.id == id else { return .gone(state.ended) }
                    if let failure = wait.failure {
                        state.wait = nil
                        return .failed(failure)
                    }
                    wait.transactionID = transactionID
                    if wait.completedTransactions.contains(where: wait.isCompleted(by:)) {
                        state.wait = nil
                        return .completed
                    }
                    wait.continuation = continuation
                    wait.timer = timer
                    state.wait = wait
                    return .waiting
                }
                switch outcome {
                case .waiting:
                    break
                case .completed:
                    timer.cancel()
                    continuation.resume()
                case .failed(let failure):
                    timer.cancel()
                    continuation.resume(throwing: failure)
                case .gone(let ended):
                    // Ended before the wait began, by cancellation or by the connection ending.
                    timer.cancel()
                    continuation.resume(
                        throwing: Task.isCancelled
                            ? ViewfinderError(.cancelled, "waiting for the picture was cancelled")
                            : ended ?? ViewfinderError(.disconnected, "the camera went away while taking the picture"))
                }
            }
        } onCancel: {
            end(id, .failure(ViewfinderError(.cancelled, "waiting for the picture was cancelled")))
        }
    }

    /// Ends capture `id`, if it is still the one under way; a failure before the caller waits is kept for it.
    private func end(_ id: UInt64, _ result: Result<Void, ViewfinderError>) {
        let wait = state.withLock { state -> Wait? in
            guard var wait = state.wait, wait.id == id else { return nil }
            if wait.continuation == nil, case .failure(let error) = result {
                // StoreFull on the event channel may come before InitiateCapture's answer on the command channel.
                wait.failure = error
                state.wait = wait
                return nil
            }
            state.wait = nil
            return wait
        }
        wait?.finish(with: result)
    }

    /// Sees the events that end a capture as they arrive: CaptureComplete, the new picture's ObjectAdded, StoreFull.
    func observe(_ event: PTPEvent) {
        switch event.code {
        case .captureComplete:
            captureCompleted(transactionID: event.transactionID)
        case .storeFull:
            guard let id = state.withLock({ $0.wait?.id }) else { return }
            end(
                id,
                .failure(
                    ViewfinderError(
                        .notAvailable, "the camera's card became full during the capture; free some space",
                        responseCode: PTPResponseCode.storeFull.rawValue)))
        case .objectAdded:
            guard let handle = event.parameters.first, let id = state.withLock({ $0.wait?.id }) else { return }
            let listsCaptureComplete = connection.deviceInfo.eventsSupported.contains(.captureComplete)
            Task { [weak self, connection] in
                // A new folder is not the picture; a camera that cannot say what the object is has made the picture.
                if let info = try? await connection.session.objectInfo(handle), info.isFolder { return }
                if listsCaptureComplete {
                    try? await Task.sleep(for: Self.objectAddedGrace)
                }
                self?.completeByObjectAdded(id)
            }
        default:
            break
        }
    }

    /// Completes capture `id` on the new picture's ObjectAdded, if it still waits.
    private func completeByObjectAdded(_ id: UInt64) {
        let waiting = state.withLock { $0.wait?.id == id }
        guard waiting else { return }
        captureCompleted(transactionID: 0)
    }

    /// Completes the capture a CaptureComplete event belongs to, or remembers the event for it.
    func captureCompleted(transactionID: UInt32) {
        let finished = state.withLock { state -> Wait? in
            guard var wait = state.wait else { return nil }
            guard wait.transactionID != nil, wait.isCompleted(by: transactionID) else {
                wait.completedTransactions.insert(transactionID)
                state.wait = wait
                return nil
            }
            state.wait = nil
            return wait
        }
        finished?.finish(with: .success(()))
    }

    /// Fails the capture under way, and every later one, with `error`: the connection ended.
    func connectionEnded(with error: ViewfinderError) {
        let wait = state.withLock { state -> Wait? in
            state.ended = error
            defer { state.wait = nil }
            return state.wait
        }
        wait?.finish(with: .failure(error))
    }
}
