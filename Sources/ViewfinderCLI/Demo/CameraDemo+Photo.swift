import Viewfinder

extension CameraDemo {
    /// How long the photo may take to appear on the card after the shutter.
    private static let newFileTimeout = Duration.seconds(15)

    /// Takes a photo, waits for it to appear on the card, downloads it with a progress bar and saves it.
    func takePhoto(with camera: any Camera) async throws -> SavedFile {
        guard let files = camera.fileAccess else {
            throw CommandFailure("the camera gives no access to the files on its card", exitStatus: ExitStatus.failure)
        }
        let (newFiles, newFile) = AsyncStream.makeStream(of: CameraFileItem.self, bufferingPolicy: .bufferingNewest(8))
        let observation = files.addNewFileObserver { newFile.yield($0) }
        defer { observation.cancel() }

        Console.print("Releasing the shutter with invokeOneShotShutterExplicitlyEngagingAutoFocus(true)")
        let start = ContinuousClock.now
        try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
        Console.print("The camera took the picture in \(Self.milliseconds(since: start)).")
        guard let item = await Self.first(of: newFiles, within: Self.newFileTimeout) else {
            throw CommandFailure(
                "the photo did not appear on the card within \(Self.newFileTimeout)",
                hint: "The machine may be very busy; run the demo again.", exitStatus: ExitStatus.timeout)
        }
        let size = item.pixelSize.map { ", \($0)" } ?? ""
        Console.print(
            "addNewFileObserver reported \(item.name) (\(CameraFileRecord(item, folder: nil).size)\(size)); "
                + "downloading it with downloadData(of:progress:)")

        let bar = ProgressBar(title: "Downloading \(item.name)", total: Int64(clamping: item.knownByteCount ?? 0))
        bar.update(0)
        let (progress, reporter) = AsyncStream.makeStream(
            of: CameraTransferProgress.self, bufferingPolicy: .bufferingNewest(1))
        async let download: [UInt8] = {
            defer { reporter.finish() }
            return try await files.downloadData(of: item) { reporter.yield($0) }
        }()
        for await step in progress {
            bar.update(Int64(clamping: step.completedByteCount), total: Int64(clamping: step.totalByteCount))
        }
        let bytes = try await download
        bar.finish()

        let header = try JPEGDecoder().header(of: bytes)
        let path = try output.write(bytes, to: item.name)
        Console.print("Saved the photo, a \(header.dimensions) JPEG, as \(path).")
        return SavedFile(path: path, description: "the photo, \(header.dimensions)")
    }
}
