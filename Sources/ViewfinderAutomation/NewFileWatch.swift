import ViewfinderCore

/// The files a camera reports as new, read one at a time with a deadline on each wait.
///
/// Watching starts when the watch is made, so a file reported before the first wait is not missed; up to 256 files
/// wait to be read, later ones are dropped. A camera that goes away ends every wait with
/// `ViewfinderError/Code/disconnected`.
struct NewFileWatch {
    private enum Signal: Sendable {
        case file(CameraFileItem)
        case disconnected
        case deadline(Int)
    }

    private var signals: AsyncStream<Signal>.Iterator
    private let continuation: AsyncStream<Signal>.Continuation
    private var waits = 0

    /// Starts watching the new files of `access`.
    init(_ access: any CameraFileAccess) {
        let (stream, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingOldest(256))
        let tokens = [
            access.addNewFileObserver { item in
                if !item.isFolder { continuation.yield(.file(item)) }
            },
            access.addConnectionStateObserver { state in
                if state == .notConnected { continuation.yield(.disconnected) }
            },
        ]
        continuation.onTermination = { _ in
            for token in tokens { token.cancel() }
        }
        signals = stream.makeAsyncIterator()
        self.continuation = continuation
    }

    /// Stops watching.
    func finish() {
        continuation.finish()
    }

    /// The next new file, or `nil` when none comes within `timeout`.
    ///
    /// - Throws: `ViewfinderError/Code/disconnected` when the camera goes away, `CancellationError` when the task
    ///   is cancelled.
    mutating func next(within timeout: Duration) async throws -> CameraFileItem? {
        waits += 1
        let wait = waits
        let continuation = continuation
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            continuation.yield(.deadline(wait))
        }
        defer { timer.cancel() }
        while let signal = await signals.next() {
            switch signal {
            case .file(let item): return item
            case .disconnected: throw ViewfinderError(.disconnected, "the camera went away")
            case .deadline(let ended) where ended == wait: return nil
            case .deadline: continue
            }
        }
        try Task.checkCancellation()
        throw ViewfinderError(.cancelled, "the watch for new files ended")
    }
}
