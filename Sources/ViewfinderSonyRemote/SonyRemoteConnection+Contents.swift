import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSystem

/// A file the driver downloads: a picture's postview, or a still on the card with its thumbnail.
struct SonyRemoteFile: Sendable {
    /// The file as the camera model lists it.
    var item: CameraFileItem
    /// Where the whole file is, as the camera wrote it, and as a URL.
    var address: String
    var url: HTTPURL
    /// Where its thumbnail is; `nil` for a postview, which is small already.
    var thumbnailURL: HTTPURL?
    /// Whether it is on the card, whose files the camera serves only while it serves its card.
    var isOnCard: Bool
}

extension SonyRemoteConnection {
    /// The most entries one `getContentList` page is asked for, as the API allows.
    static let contentPageLength = 100
    /// The most sources of the `storage` scheme read.
    static let maximumSources = 16

    /// A still as `getContentList` lists it, before it has an id.
    struct ContentEntry {
        var name: String
        var kind: CameraFileItem.Kind
        var address: String
        var url: HTTPURL
        var thumbnailURL: HTTPURL
        var captureDate: String?
    }

    /// Registers a file at `address` in `state`, keeping the id it had when it was listed before, and returns its
    /// item.
    static func register(
        name: String, kind: CameraFileItem.Kind, storageID: UInt32, address: String, url: HTTPURL,
        thumbnailURL: HTTPURL? = nil, captureDate: String? = nil, in state: inout State
    ) -> CameraFileItem {
        let id = state.fileIDs[address] ?? state.nextFileID
        if id == state.nextFileID {
            state.nextFileID += 1
            state.fileIDs[address] = id
        }
        let item = CameraFileItem(
            id: id, storageID: storageID, parentID: nil, name: name, kind: kind,
            byteCount: nil, captureDate: captureDate)
        state.files[id] = SonyRemoteFile(
            item: item, address: address, url: url, thumbnailURL: thumbnailURL, isOnCard: thumbnailURL != nil)
        return item
    }

    /// Registers the stills of a listing of the card `storageID`, and forgets those of the card no longer listed,
    /// so that the files kept are bounded by one listing of each card and the pictures taken.
    private func replaceCard(_ storageID: UInt32, with entries: [ContentEntry]) -> [CameraFileItem] {
        state.withLock { state in
            let items = entries.map { entry in
                Self.register(
                    name: entry.name, kind: entry.kind, storageID: storageID, address: entry.address, url: entry.url,
                    thumbnailURL: entry.thumbnailURL, captureDate: entry.captureDate, in: &state)
            }
            let kept = Set(items.map(\.id))
            for (id, file) in state.files where file.isOnCard && file.item.storageID == storageID {
                guard !kept.contains(id) else { continue }
                state.files[id] = nil
                state.fileIDs[file.address] = nil
            }
            return items
        }
    }

    /// The postviews of the pictures taken on this connection.
    func postviews() -> [CameraFileItem] {
        state.withLock { $0.files.values }.filter { !$0.isOnCard }.map(\.item).sorted { $0.id < $1.id }
    }

    /// The card's storages, the sources of the `storage` scheme (`storage:memoryCard1`), after switching the camera
    /// to its card.
    ///
    /// - Throws: What switching to the card and the calls throw.
    func cardStorages() async throws -> [CameraStorage] {
        try await enterContentsTransfer()
        let schemes = try await call("getSchemeList", service: avContentURL)
        guard (schemes.first?.array ?? []).contains(where: { $0["scheme"]?.string == "storage" }) else { return [] }
        let result = try await call(
            "getSourceList", [.object([("scheme", .string("storage"))])], service: avContentURL)
        let sources = (result.first?.array ?? []).compactMap { $0["source"]?.string }.filter { $0.utf8.count <= 256 }
            .prefix(Self.maximumSources)
        state.withLock { $0.sources = Array(sources) }
        return sources.enumerated().map { index, source in
            CameraStorage(
                id: UInt32(index + 1), storageDescription: source, volumeLabel: "", capacityByteCount: nil,
                freeByteCount: nil, isWritable: false)
        }
    }

    /// The stills on the card `storageID` names, asked for a page of at most 100 at a time, up to the count the
    /// camera gives or the configured bound, whichever is smaller.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a storage ``cardStorages()`` did not list; `malformedData` for
    ///   a count out of form or a page longer than asked for; what switching to the card and the calls throw.
    func cardContents(of storageID: UInt32) async throws -> [CameraFileItem] {
        try await enterContentsTransfer()
        let index = Int(storageID) - 1
        guard let source = state.withLock({ $0.sources.indices.contains(index) ? $0.sources[index] : nil }) else {
            throw ViewfinderError(.notFound, "\(peer) lists no card numbered \(storageID)")
        }
        let filter: [(key: String, value: JSONValue)] = [
            ("uri", .string(source)), ("type", .array([.string("still")])), ("view", .string("flat")),
        ]
        let counted = try await call("getContentCount", [.object(filter)], service: avContentURL, version: "1.2")
        guard let count = counted.first?["count"]?.integer, count >= 0 else {
            throw ViewfinderError(.malformedData, "\(peer) answered getContentCount without a count")
        }
        // The count is the camera's word: a page that comes back short ends the list, and the bound caps it.
        let limit = min(count, configuration.maximumContentCount)
        var (listed, start) = ([ContentEntry](), 0)
        while start < limit {
            let wanted = min(Self.contentPageLength, limit - start)
            let page =
                filter + [
                    ("stIdx", .number(Double(start))), ("cnt", .number(Double(wanted))), ("sort", .string("ascending")),
                ]
            let result = try await call("getContentList", [.object(page)], service: avContentURL, version: "1.3")
            guard let entries = result.first?.array, entries.count <= wanted else {
                throw ViewfinderError(
                    .malformedData,
                    "\(peer) answered getContentList with other than a list of \(wanted) entries or fewer")
            }
            listed += entries.compactMap(Self.entry)
            start += entries.count
            if entries.count < wanted { break }
        }
        return replaceCard(storageID, with: listed)
    }

    /// A `getContentList` entry whose original has a name and an http URL; `nil` otherwise.
    private static func entry(_ entry: JSONValue) -> ContentEntry? {
        let content = entry["content"]
        guard let original = content?["original"]?.array?.first, let name = original["fileName"]?.string,
            !name.isEmpty, name.utf8.count <= 255, let address = original["url"]?.string, let url = HTTPURL(address)
        else { return nil }
        let thumbnail = content?["thumbnailUrl"]?.string.flatMap(HTTPURL.init) ?? url
        return ContentEntry(
            name: name, kind: original["stillObject"]?.string == "raw" ? .rawImage : .jpegImage, address: address,
            url: url, thumbnailURL: thumbnail, captureDate: entry["createdTime"]?.string.map { String($0.prefix(64)) })
    }

    /// The file `item` names.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a file not listed or taken on this connection.
    private func file(_ item: CameraFileItem) throws(ViewfinderError) -> SonyRemoteFile {
        guard let file = state.withLock({ $0.files[item.id] }) else {
            throw ViewfinderError(.notFound, "\(item.name) is no file listed or taken on this connection to \(peer)")
        }
        return file
    }

    /// Downloads a file in pieces, each handed to `chunkHandler` before the next is read; a file on the card after
    /// switching the camera to it.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a file not listed or taken on this connection, `malformedData`
    ///   for an answer that is not a 200 with a length, `disconnected` when the camera stops before the end,
    ///   `timeout` when it stalls.
    func download(
        _ item: CameraFileItem, chunkHandler: @escaping @Sendable ([UInt8], CameraTransferProgress) async throws -> Void
    ) async throws {
        let file = try file(item)
        try await download(file.url, of: file, chunkHandler: chunkHandler)
    }

    /// A file's thumbnail, whole: a still's on the card, or a postview itself.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a thumbnail longer than the live view frame bound; what
    ///   ``download(_:chunkHandler:)`` throws.
    func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        let file = try file(item)
        let bytes = Locked<[UInt8]>([])
        let bound = configuration.maximumFrameLength
        try await download(file.thumbnailURL ?? file.url, of: file) { chunk, _ in
            try bytes.withLock { bytes throws(ViewfinderError) in
                guard bytes.count + chunk.count <= bound else {
                    throw ViewfinderError(.malformedData, "the thumbnail of \(item.name) is longer than \(bound) bytes")
                }
                bytes += chunk
            }
        }
        return bytes.withLock { $0 }
    }

    private func download(
        _ url: HTTPURL, of file: SonyRemoteFile,
        chunkHandler: @escaping @Sendable ([UInt8], CameraTransferProgress) async throws -> Void
    ) async throws {
        if file.isOnCard { try await enterContentsTransfer() }
        let download = HTTPClient.Download(
            url.getRequest(), host: url.host, port: url.port, name: file.item.name, peer: peer,
            timeout: configuration.requestTimeout)
        try await HTTPClient.download(download, on: thread, chunkHandler: chunkHandler)
    }
}
