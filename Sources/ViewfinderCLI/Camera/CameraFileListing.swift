import Viewfinder

/// The files on a camera's cards, found by walking every storage's folders.
struct CameraFileListing {
    /// How deep the walk goes into folders; cameras keep pictures two levels down (`DCIM/100NIKON`).
    static let maximumDepth = 8
    /// The most files and folders the walk lists, so a camera that reports endless folders cannot exhaust memory.
    static let maximumCount = 100_000

    /// A file with its folder.
    struct Entry {
        var item: CameraFileItem
        var folder: String

        var record: CameraFileRecord { CameraFileRecord(item, folder: folder) }
    }

    /// The files, in the camera's order, storage by storage.
    let files: [Entry]

    /// Walks the folders of every storage of `camera`.
    ///
    /// - Throws: ``CommandFailure`` with exit status 76 when the camera does not give access to its files, or what the
    ///   camera answered.
    init(of camera: any Camera) async throws {
        let access = try Self.fileAccess(of: camera)
        var files: [Entry] = []
        var count = 0
        for storage in try await access.storages() {
            var pending: [(folder: CameraFileItem?, path: String, depth: Int)] = [(nil, "/", 0)]
            while let (folder, path, depth) = pending.popLast() {
                for item in try await access.contents(of: folder, in: storage) {
                    count += 1
                    guard count <= Self.maximumCount else {
                        throw CommandFailure(
                            "the camera lists more than \(Self.maximumCount) files and folders",
                            exitStatus: ExitStatus.ioError)
                    }
                    if item.isFolder {
                        if depth < Self.maximumDepth {
                            pending.insert((item, (path == "/" ? "" : path) + "/" + item.name, depth + 1), at: 0)
                        }
                    } else {
                        files.append(Entry(item: item, folder: path))
                    }
                }
            }
        }
        self.files = files
    }

    /// The camera's file access, or a failure that says it has none.
    static func fileAccess(of camera: any Camera) throws -> any CameraFileAccess {
        guard let access = camera.fileAccess, camera.supportedFunctionality.contains(.fileAccess) else {
            let model = camera.deviceInfo?.model ?? "the camera"
            throw CommandFailure(
                "\(model) does not give access to its files", exitStatus: ExitStatus.unsupported)
        }
        return access
    }

    /// The file with a handle, as `download` takes it: decimal, or hexadecimal with `0x`.
    ///
    /// - Throws: ``CommandFailure`` with exit status 66 when no file has the handle.
    func file(_ handleText: String, commandPath: String) throws -> Entry {
        let handle: UInt32? =
            handleText.lowercased().hasPrefix("0x")
            ? UInt32(handleText.dropFirst(2), radix: 16) : UInt32(handleText)
        guard let handle else {
            throw UsageError(
                "HANDLE is a file's number as 'viewfinder camera files' lists it, not '\(handleText)'",
                commandPath: commandPath)
        }
        guard let entry = files.first(where: { $0.item.id == handle }) else {
            throw CommandFailure(
                "the camera has no file with handle \(handle)",
                hint: "'viewfinder camera files' lists the files and their handles.", exitStatus: ExitStatus.notFound)
        }
        return entry
    }
}
