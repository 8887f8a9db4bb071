import Viewfinder
import ViewfinderHTTP
import ViewfinderSystem

extension RemoteServer {
    /// The card's files, listed again when the snapshot says files were added.
    ///
    /// One listing runs at a time: a request that needs the files while they are being listed (the page, its
    /// thumbnails, a download) waits for that listing instead of walking the card again, so a card of thousands of
    /// files is walked once however many requests come.
    func files() throws -> [CameraFileListing.Entry] {
        do {
            return try listing.value(for: camera.current.filesVersion, until: .now + configuration.cameraTimeout) {
                try perform { camera in try await CameraFileListing(of: camera).files }
            }
        } catch is SingleFlight<Int, [CameraFileListing.Entry]>.TimedOut {
            throw Refusal(status: "504 Gateway Timeout", message: "The camera did not list its files in time.")
        }
    }

    /// The file a handle in a path names.
    func file(_ handleText: String) throws -> CameraFileItem {
        guard let handle = UInt32(handleText) else {
            throw Refusal(status: "400 Bad Request", message: "A file is named by its number, not '\(handleText)'.")
        }
        guard let entry = try files().first(where: { $0.item.id == handle }) else {
            throw Refusal(status: "404 Not Found", message: "The camera has no file \(handle).")
        }
        return entry.item
    }

    /// The thumbnail the camera keeps for a file.
    func thumbnail(of item: CameraFileItem) throws -> HTTPResponse {
        let jpeg = try perform { camera in try await CameraFileListing.fileAccess(of: camera).thumbnail(of: item) }
        return HTTPResponse(status: "200 OK", contentType: "image/jpeg", body: jpeg)
    }

    /// Sends a file as it comes from the camera: its length in advance when the camera gives it, in chunks when it
    /// gives none or says only "4 GiB or more".
    ///
    /// A few chunks at most are held (``ChunkRelay``), however large the file. Each chunk has its deadline, from the
    /// camera (``Configuration/cameraTimeout``) and to the browser (``Configuration/sendTimeout``), so a movie of
    /// many gigabytes downloads over slow WiFi while a camera or browser that stops is dropped. A file goes to one
    /// browser at a time; another request for it while it goes is answered `409`. A download that fails after its
    /// head was sent ends the connection short of its length, which the browser reports as a failed download.
    func send(_ item: CameraFileItem, on exchange: HTTPExchange) {
        guard downloads.withLock({ $0.insert(item.id).inserted }) else {
            let message = "\(item.name) is being downloaded already; try again once that download has ended."
            exchange.respond(.text("409 Conflict", message), within: configuration.sendTimeout)
            return
        }
        defer { downloads.withLock { _ = $0.remove(item.id) } }
        let name = item.safeFileName
        let length: HTTPResponse.BodyLength = item.knownByteCount.map { .bytes($0) } ?? .chunked
        let head = exchange.head(
            status: "200 OK", contentType: Self.mediaType(of: name), length: length,
            headers: [("Content-Disposition", HTTPResponse.attachment(named: name))])
        guard !exchange.isHead else {
            try? exchange.socket.send(head, until: .now + configuration.sendTimeout, while: "answering")
            return
        }
        let access: any CameraFileAccess
        do {
            guard camera.camera.connectionState == .connected else {
                throw Refusal(status: "503 Service Unavailable", message: "The camera is not connected.")
            }
            access = try CameraFileListing.fileAccess(of: camera.camera)
        } catch let refusal as Refusal {
            exchange.respond(.text(refusal.status, refusal.message), within: configuration.sendTimeout)
            return
        } catch {
            exchange.respond(Self.failure(error), within: configuration.sendTimeout)
            return
        }
        let relay = ChunkRelay()
        let transfer = Task {
            do {
                try await access.download(item) { chunk, _ in try await relay.put(chunk) }
                relay.finish(nil)
            } catch {
                relay.finish(error)
            }
        }
        defer {
            relay.cancel()
            transfer.cancel()
        }
        // The first chunk, or the failure, comes before the head, so that a camera's refusal gets its status.
        switch relay.take(until: .now + configuration.cameraTimeout) {
        case nil:
            let message = "The camera sent nothing of \(name) in time."
            exchange.respond(.text("504 Gateway Timeout", message), within: configuration.sendTimeout)
        case .failure(let error):
            exchange.respond(Self.failure(error), within: configuration.sendTimeout)
        case let first?:
            try? stream(first, then: relay, of: item, after: head, length: length, on: exchange)
        }
    }

    /// Sends the head and the chunks from `first` on, until the relay ends or a deadline passes.
    private func stream(
        _ first: ChunkRelay.Item, then relay: ChunkRelay, of item: CameraFileItem, after head: [UInt8],
        length: HTTPResponse.BodyLength, on exchange: HTTPExchange
    ) throws(SocketError) {
        let writer = try HTTPBodyWriter(
            socket: exchange.socket, head: head, length: length, until: .now + configuration.sendTimeout)
        var sent: UInt64 = 0
        var next: ChunkRelay.Item? = first
        while case .chunk(let bytes)? = next {
            sent += UInt64(bytes.count)
            // A camera that sends more than it said the file holds would make the answer say something else.
            if case .bytes(let total) = length, sent > total { return }
            try writer.write(bytes, until: .now + configuration.sendTimeout)
            next = relay.take(until: .now + configuration.cameraTimeout)
        }
        guard case .end? = next else { return }
        try writer.finish(until: .now + configuration.sendTimeout)
    }

    /// The media type of a camera file, by its extension.
    static func mediaType(of name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "mov": "video/quicktime"
        case "mp4": "video/mp4"
        default: "application/octet-stream"
        }
    }
}
