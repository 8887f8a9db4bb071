import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderHTTPMessage

extension OlympusConnection: CameraDriverCardAccess {
    /// The folder the camera keeps its pictures' folders in.
    static let pictureFolder = "/DCIM"
    /// The most folders listed when the whole card is read: a card holds fewer.
    static let maximumFolderCount = 1000
    /// The longest thumbnail read.
    static let maximumThumbnailLength = 4 << 20

    /// The entries of `folder` (`/DCIM` at the top) in playback mode, as file items; hidden, system and volume
    /// entries are left out, as the camera's app does.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a listing out of form, or what a command throws.
    func contents(of folder: String) async throws -> [CameraFileItem] {
        let entries = try await inMode(.playback) { [self] in try await list(folder) }
        return items(entries)
    }

    /// Every file on the card under `/DCIM`, in playback mode.
    func allFiles() async throws -> [OlympusFolderEntry] {
        try await inMode(.playback) { [self] in
            var files: [OlympusFolderEntry] = []
            var folders = [Self.pictureFolder]
            var listed = 0
            while let folder = folders.popLast(), listed < Self.maximumFolderCount {
                listed += 1
                for entry in try await list(folder) {
                    if entry.isFolder { folders.append(entry.path) } else { files.append(entry) }
                }
            }
            return files
        }
    }

    /// One folder's visible entries; an empty folder answers 404, which is no entries.
    private func list(_ folder: String) async throws(ViewfinderError) -> [OlympusFolderEntry] {
        let body: [UInt8]
        do throws(ViewfinderError) {
            body = try await command("get_imglist", [("DIR", folder)])
        } catch  where error.code == .notFound {
            return []
        }
        return try OlympusFolderEntry.list(parsing: body).filter { !$0.isHidden }
    }

    /// File items for `entries`, each given an id the connection keeps for its path.
    private func items(_ entries: [OlympusFolderEntry]) -> [CameraFileItem] {
        state.withLock { state in
            entries.map { entry in
                let id = state.ids[entry.path] ?? UInt32(state.ids.count + 1)
                state.ids[entry.path] = id
                state.entries[id] = entry
                let parent = String(entry.path[..<(entry.path.lastIndex(of: "/") ?? entry.path.startIndex)])
                return CameraFileItem(
                    id: id, storageID: 1, parentID: parent == Self.pictureFolder ? nil : state.ids[parent],
                    name: String(entry.path.split(separator: "/").last ?? ""), kind: Self.kind(of: entry),
                    byteCount: UInt64(entry.size), captureDate: Self.captureDate(entry.time))
            }
        }
    }

    /// What an entry holds, by its extension.
    private static func kind(of entry: OlympusFolderEntry) -> CameraFileItem.Kind {
        if entry.isFolder { return .folder }
        switch entry.path.split(separator: ".").last?.uppercased() {
        case "JPG", "JPEG": return .jpegImage
        case "ORF", "ORI": return .rawImage
        case "MOV", "MP4", "AVI": return .video
        default: return .other
        }
    }

    /// `YYYYMMDDThhmmss`.
    private static func captureDate(_ time: OlympusFolderEntry.FATTime) -> String {
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(time.year)\(two(time.month))\(two(time.day))T\(two(time.hour))\(two(time.minute))\(two(time.second))"
    }

    /// The entry listed with `item`'s id.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a file not listed since the connection opened.
    func entry(_ item: CameraFileItem) throws(ViewfinderError) -> OlympusFolderEntry {
        guard let entry = state.withLock({ $0.entries[item.id] }) else {
            throw ViewfinderError(
                .notFound, "\(item.name) is not among the files listed on the Olympus; list them again")
        }
        return entry
    }

    /// Tells the new-file observers of the files the card gained past `before`, once it lists them (for up to five
    /// seconds, while the camera writes the picture); a listing that fails tells them nothing.
    func reportNewFiles(after before: Set<String>) async {
        for attempt in 0..<20 {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(250)) }
            guard let files = try? await allFiles() else { return }
            let added = files.filter { !before.contains($0.path) }
            guard !added.isEmpty else { continue }
            for item in items(added.sorted { $0.path < $1.path }) {
                context.reportNewFile(item)
            }
            return
        }
    }

    /// Downloads a file in playback mode, in pieces, each handed to `chunkHandler` before the next is read.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a file not listed, `malformedData` for an answer that is not a
    ///   200 with a length, `disconnected` when the camera stops before the end, `timeout` when it stalls.
    public func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable ([UInt8], CameraTransferProgress) async throws -> Void
    ) async throws {
        let entry = try entry(item)
        let download = HTTPClient.Download(
            Self.request(HTTPClient.percentEncoded(entry.path), host: host, port: configuration.port), host: host,
            port: configuration.port, name: item.name, peer: "the Olympus", timeout: configuration.requestTimeout)
        try await inMode(.playback) { [self] in
            try await HTTPClient.download(download, on: link.thread, chunkHandler: chunkHandler)
        }
    }

    /// The thumbnail the camera keeps for a file (`get_thumbnail`), in playback mode.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a file not listed, or what a command throws.
    public func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        let entry = try entry(item)
        return try await inMode(.playback) { [self] in
            try await command("get_thumbnail", [("DIR", entry.path)], maximumLength: Self.maximumThumbnailLength)
        }
    }
}
