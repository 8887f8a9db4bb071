import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSystem

extension LumixConnection: CameraDriverCardAccess {
    /// The most files listed: a card holds fewer.
    static let maximumFileCount = 100_000
    /// The most bytes of a file read in one piece.
    static let downloadPieceLength = 256 * 1024
    /// The longest thumbnail read.
    static let maximumThumbnailLength = 4 << 20

    /// The files on the card, from the content directory, in playback mode; the camera returns to recording mode
    /// after.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a content count or listing out of form, or what a
    ///   command throws.
    func listFiles() async throws(ViewfinderError) -> [CameraFileItem] {
        try await listFiles(from: 0, count: nil)
    }

    /// The `count` files from position `start` (all from there when `nil`), listed in playback mode.
    private func listFiles(from start: Int, count: Int?) async throws(ViewfinderError) -> [CameraFileItem] {
        try await cameraCommand("playmode", while: "switching to playback mode to list the card")
        let listed: Result<[LumixContentDirectory.File], ViewfinderError>
        do throws(ViewfinderError) {
            var wanted = count ?? 0
            if count == nil {
                wanted = try await contentCount() - start
            }
            var files: [LumixContentDirectory.File] = []
            while files.count < wanted {
                let page = try await browse(
                    from: start + files.count, count: min(LumixContentDirectory.pageSize, wanted - files.count))
                guard page.returned > 0 else { break }
                files += page.files
            }
            listed = .success(files)
        } catch {
            listed = .failure(error)
        }
        try await cameraCommand("recmode", while: "switching back to recording mode")
        let files = try listed.get()
        state.withLock { state in
            for file in files { state.files[file.item.id] = file }
        }
        return files.map(\.item)
    }

    /// How many files the card holds (`get_content_info`).
    func contentCount() async throws(ViewfinderError) -> Int {
        let info = try await command("mode=get_content_info")
        try info.requireOK("counting the pictures on the card")
        guard let count = info.document?.first("content_number").flatMap({ Int($0.text) }),
            (0...Self.maximumFileCount).contains(count)
        else {
            throw ViewfinderError(.malformedData, "the Lumix gave no content count Viewfinder can read")
        }
        return count
    }

    /// Tells the new-file observers of the files the card gained past `before`, once its count shows them (for up to
    /// five seconds, while the camera writes the picture); a listing that fails tells them nothing.
    func reportNewFiles(after before: Int) async {
        var after = before
        for _ in 0..<20 {
            after = (try? await contentCount()) ?? before
            if after > before { break }
            try? await Task.sleep(for: .milliseconds(250))
        }
        guard after > before, let files = try? await listFiles(from: before, count: after - before) else { return }
        for file in files {
            context.reportNewFile(file)
        }
    }

    /// Where the content directory takes its Browse: as the camera's device description names it, read once per
    /// connection, or the usual place on the description's port when the description cannot be read (no answer, an
    /// HTTP status other than 200, more than a description's bound, XML out of form) or names none.
    private func contentControl() async -> HTTPURL {
        if let known = state.withLock({ $0.contentControl }) { return known }
        let location = HTTPURL(host: host, port: configuration.contentPort, target: configuration.descriptionPath)
        let timeout = configuration.requestTimeout
        let answer = try? await Self.run(on: link.thread) { () throws(ViewfinderError) -> HTTPClient.Answer in
            try HTTPClient.exchange(
                location.getRequest(), host: location.host, port: location.port, deadline: .now + timeout,
                maximumBodyLength: UPnPDeviceDescription.maximumLength,
                activity: "reading the Lumix's device description")
        }
        let named = answer.flatMap { answer in
            answer.status == 200 ? LumixContentDirectory.controlURL(inDescription: answer.body, at: location) : nil
        }
        let control =
            named
            ?? HTTPURL(host: host, port: configuration.contentPort, target: LumixContentDirectory.usualControlPath)
        state.withLock { $0.contentControl = control }
        return control
    }

    private func browse(from start: Int, count: Int) async throws(ViewfinderError) -> (
        files: [LumixContentDirectory.File], returned: Int
    ) {
        let control = await contentControl()
        let (head, body) = LumixContentDirectory.browseRequest(at: control, start: start, count: count)
        let timeout = configuration.requestTimeout
        let bound = configuration.maximumAnswerLength
        let answer = try await Self.run(on: link.thread) { () throws(ViewfinderError) -> HTTPClient.Answer in
            try HTTPClient.exchange(
                head, body: body, host: control.host, port: control.port, deadline: .now + timeout,
                maximumBodyLength: bound, activity: "listing the Lumix's card")
        }
        guard answer.status == 200 else {
            throw ViewfinderError(.malformedData, "the Lumix's content directory answered HTTP \(answer.status)")
        }
        return try LumixContentDirectory.files(inBrowseAnswer: answer.body)
    }

    /// The file listed last with `id`.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a file not listed since the connection opened.
    private func file(_ item: CameraFileItem) throws(ViewfinderError) -> LumixContentDirectory.File {
        guard let file = state.withLock({ $0.files[item.id] }) else {
            throw ViewfinderError(.notFound, "\(item.name) is not among the files listed on the Lumix; list them again")
        }
        return file
    }

    /// Downloads a file in pieces, each handed to `chunkHandler` before the next is read; every read has the
    /// command deadline.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a file not listed, `malformedData` for an answer that is not a
    ///   200 with a length, `disconnected` when the camera stops before the end, `timeout` when it stalls.
    public func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable ([UInt8], CameraTransferProgress) async throws -> Void
    ) async throws {
        let file = try file(item)
        guard let url = HTTPURL(file.url) else {
            throw ViewfinderError(.malformedData, "the Lumix listed \(item.name) at \(file.url), not an http:// URL")
        }
        let download = HTTPClient.Download(
            url.getRequest(), host: url.host, port: url.port, name: item.name, peer: "the Lumix",
            timeout: configuration.requestTimeout, pieceLength: Self.downloadPieceLength)
        try await HTTPClient.download(download, on: link.thread, chunkHandler: chunkHandler)
    }

    /// The thumbnail the camera keeps for a file.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the listing gave none, or what a fetch throws.
    public func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        guard let address = try file(item).thumbnailURL, let url = HTTPURL(address) else {
            throw ViewfinderError(.notAvailable, "the Lumix lists no thumbnail for \(item.name)")
        }
        let timeout = configuration.requestTimeout
        let answer = try await Self.run(on: link.thread) { () throws(ViewfinderError) -> HTTPClient.Answer in
            try HTTPClient.exchange(
                url.getRequest(), host: url.host, port: url.port, deadline: .now + timeout,
                maximumBodyLength: Self.maximumThumbnailLength, activity: "fetching \(item.name)'s thumbnail")
        }
        guard answer.status == 200 else {
            throw ViewfinderError(
                .malformedData, "the Lumix answered \(item.name)'s thumbnail with HTTP \(answer.status)")
        }
        return answer.body
    }
}
