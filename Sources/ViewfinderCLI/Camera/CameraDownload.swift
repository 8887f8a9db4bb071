import Viewfinder

/// Downloads files from a camera's card into a directory, chunk by chunk, showing progress.
///
/// Each chunk is written before the next is fetched, so memory stays at one chunk however large the file, and the
/// file gets its name only once complete (``CameraFileAccess/download(_:toFile:progress:)``). Progress goes to
/// standard error: a bar on a terminal, a line every quarter otherwise.
struct CameraDownload {
    let access: any CameraFileAccess
    let directory: OutputDirectory
    /// Whether to show progress.
    let showsProgress: Bool

    /// Downloads `item` to a file of its name in the directory, replacing one of that name; returns the file's path.
    ///
    /// A download that fails, or that Ctrl-C stops, leaves no partial file behind; a file of the name is replaced
    /// only once the new one is complete.
    ///
    /// - Throws: ``CommandFailure`` for a name that is not a plain file name, such as one with a `/` that would put
    ///   the file outside the directory; what the camera answered; or why the file could not be written.
    func download(_ item: CameraFileItem) async throws -> String {
        guard CameraFileItem.isPlainFileName(item.name) else {
            throw CommandFailure(
                "the camera names file \(item.id) '\(item.name.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())'"
                    + ", which is not a plain file name; it was not saved")
        }
        let path = directory.path(for: item.name)
        // Progress reaches this task through a buffer of one: the newest count replaces one not yet shown.
        let (updates, continuation) = AsyncStream.makeStream(
            of: CameraTransferProgress.self, bufferingPolicy: .bufferingNewest(1))
        let access = access
        let transfer = Task {
            defer { continuation.finish() }
            try await access.download(item, toFile: path) { progress in
                continuation.yield(progress)
            }
        }
        // Ctrl-C stops the transfer between chunks; the camera's session is then closed as usual.
        Interrupt.beginHandling()
        let interruption = Task {
            await Interrupt.wait()
            transfer.cancel()
        }
        defer { interruption.cancel() }
        let bar = showsProgress ? ProgressBar(title: item.name, total: Int64(clamping: item.knownByteCount ?? 0)) : nil
        for await progress in updates {
            bar?.update(Int64(progress.completedByteCount), total: Int64(progress.totalByteCount))
        }
        do {
            try await withTaskCancellationHandler {
                try await transfer.value
            } onCancel: {
                transfer.cancel()
            }
        } catch {
            guard !Interrupt.hasOccurred else {
                throw CommandFailure(
                    "stopped with Ctrl-C while downloading \(item.name); the part already downloaded was removed",
                    exitStatus: ExitStatus.interrupted)
            }
            throw error
        }
        bar?.finish()
        return path
    }
}
