import ViewfinderCore

extension PTPCamera {
    /// The camera's storages, such as its card slots, with their capacity and free space.
    public func storages() async throws -> [CameraStorage] {
        let link = try requireFileAccess(for: "list the camera's storages")
        var storages: [CameraStorage] = []
        let ids = try await fileOperation("list the camera's storages", on: link) {
            try await link.session.storageIDs()
        }
        for id in ids {
            let info = try await fileOperation("read storage \(Self.hex(id))", on: link) {
                try await link.session.storageInfo(id)
            }
            storages.append(
                CameraStorage(
                    id: id, storageDescription: info.storageDescription, volumeLabel: info.volumeLabel,
                    capacityByteCount: info.maximumCapacity, freeByteCount: info.freeSpaceInBytes,
                    isWritable: info.accessCapability == 0))
        }
        return storages
    }

    /// The files and folders in a folder of a storage, or at its top when `folder` is `nil`, in the camera's order.
    ///
    /// Where the camera offers a bulk form, one request lists the folder: Canon EOS's GetObjectInfoEx, or MTP's
    /// GetObjectPropList; elsewhere, or when the camera refuses the bulk form, each object takes a GetObjectInfo.
    /// An object whose information the camera refuses is listed as `CameraFileItem.Kind.undescribed`, without a
    /// name or size; the rest of the listing goes on.
    public func contents(of folder: CameraFileItem?, in storage: CameraStorage) async throws -> [CameraFileItem] {
        let link = try requireFileAccess(for: "list files")
        let place = folder.map { "folder \($0.name)" } ?? "the top of storage \(Self.hex(storage.id))"
        if let items = try await bulkContents(of: folder, in: storage, on: link, place: place) {
            return items
        }
        let handles = try await fileOperation("list \(place)", on: link) {
            try await link.session.objectHandles(storageID: storage.id, parent: folder?.id ?? 0xFFFF_FFFF)
        }
        var items: [CameraFileItem] = []
        items.reserveCapacity(handles.count)
        for handle in handles {
            items.append(try await describe(handle, in: storage, folder: folder, on: link))
        }
        return items
    }

    /// The item for an object, from its ObjectInfo; `CameraFileItem.Kind.undescribed` when the camera will not
    /// describe it.
    private func describe(
        _ handle: UInt32, in storage: CameraStorage, folder: CameraFileItem?, on link: PTPDriverConnection
    ) async throws -> CameraFileItem {
        let info: PTPObjectInfo
        do {
            info = try await fileOperation("read object \(Self.hex(handle))", on: link) {
                try await link.session.objectInfo(handle)
            }
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            // The camera lists the object but will not describe it: the listing goes on, as gphoto2's does.
            return CameraFileItem(
                id: handle, storageID: storage.id, parentID: folder?.id, name: "", kind: .undescribed, byteCount: nil)
        }
        return await item(handle, info, on: link)
    }

    /// The item ObjectInfo gives, with the 64-bit size of an object of 4 GiB or more where the camera tells it.
    private func item(_ handle: UInt32, _ info: PTPObjectInfo, on link: PTPDriverConnection) async -> CameraFileItem {
        var item = CameraFileItem(handle: handle, info: info)
        if !item.isByteCountKnown, let size = await largeObjectSize(handle, on: link) {
            item.byteCount = size
        }
        return item
    }

    /// A folder's items from the camera's bulk form, one request for the whole folder.
    ///
    /// The form is Canon EOS's GetObjectInfoEx where a Canon lists it (as libgphoto2 lists EOS folders), else MTP's
    /// GetObjectPropList where the camera speaks MTP. `nil` when the camera has neither, or refuses or garbles its
    /// answer and the session goes on: the listing then goes object by object. Objects the answer leaves
    /// undescribed are described one by one.
    private func bulkContents(
        of folder: CameraFileItem?, in storage: CameraStorage, on link: PTPDriverConnection, place: String
    ) async throws -> [CameraFileItem]? {
        let info = link.ptpDeviceInfo
        let canon = info.vendorExtensionID == 0x0B && info.supports(.canonEOSGetObjectInfoEx)
        guard canon || (info.speaksMTP && info.supports(.getObjectPropList)) else { return nil }
        let answer: BulkListing
        do {
            answer = try await fileOperation("list \(place)", on: link) {
                canon
                    ? .canonEOS(
                        try await link.session.canonEOSObjectEntries(
                            storageID: storage.id, folder: folder?.id ?? 0xFFFF_FFFF))
                    : .mtp(try await link.session.objectPropList(of: folder?.id ?? 0))
            }
        } catch is ViewfinderError where link.session.state == .open {
            return nil
        }
        var items: [CameraFileItem] = []
        switch answer {
        case .canonEOS(let entries):
            for entry in entries {
                items.append(await item(entry.handle, entry.objectInfo(parent: folder?.id ?? 0), on: link))
            }
        case .mtp(let list):
            for object in list.objects {
                guard let info = object.info else {
                    let item = try await describe(object.handle, in: storage, folder: folder, on: link)
                    if item.kind == .undescribed || item.storageID == storage.id { items.append(item) }
                    continue
                }
                // At the top, the answer holds every storage's objects.
                guard info.storageID == storage.id else { continue }
                var item = CameraFileItem(handle: object.handle, info: info)
                if let size = object.size { item.byteCount = size }
                items.append(item)
            }
        }
        return items
    }

    /// The 64-bit size of an object whose ObjectInfo says `0xFFFFFFFF`, from MTP's ObjectSize where the camera
    /// speaks MTP; `nil` where it does not, or does not answer, and the size is known only once the download starts.
    private func largeObjectSize(_ handle: UInt32, on link: PTPDriverConnection) async -> UInt64? {
        guard link.ptpDeviceInfo.speaksMTP, link.ptpDeviceInfo.supports(.getObjectPropValue) else { return nil }
        return try? await link.session.objectSize(handle)
    }

    /// Downloads a file in pieces of ``Configuration/downloadChunkSize``, handing each to `chunkHandler` before the
    /// next is handed on; memory stays bounded whatever the file's size.
    ///
    /// Files under 4 GiB come with GetPartialObject, a piece per request, where the camera has it; bigger files, and
    /// files on cameras without it, come with GetObject in one data phase, handed on in pieces as they arrive, at
    /// most two waiting for the handler (a slow handler slows the transfer). A file of 4 GiB or more whose size the
    /// camera does not give in advance (`CameraFileItem.isByteCountKnown` is false) reports the size the data
    /// phase announces in its progress.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a file that is gone, what `chunkHandler` throws, or
    ///   `ViewfinderError/Code/malformedData` when the camera sends more or fewer bytes than the file holds.
    public func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws {
        let link = try requireFileAccess(for: "download \(item.name)")
        guard !item.isFolder else {
            throw ViewfinderError(.invalidArgument, "\(item.name) is a folder; download the files in it instead")
        }
        // GetPartialObject's offset and length are 32 bits.
        guard link.ptpDeviceInfo.supports(.getPartialObject), let total = item.knownByteCount,
            total < CameraFileItem.sizeOf4GiBOrMore
        else {
            try await streamDownload(item, on: link, chunkHandler: chunkHandler)
            return await link.dialect.fileDownloaded(item.id)
        }
        var offset: UInt64 = 0
        while offset < total {
            let length = UInt32(min(UInt64(configuration.downloadChunkSize), total - offset))
            let chunk = try await fileOperation("download \(item.name)", on: link) { [offset] in
                try await link.session.partialObject(item.id, offset: UInt32(offset), maximumLength: length)
            }
            guard !chunk.isEmpty, chunk.count <= Int(length) else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera sent \(chunk.count) bytes of \(item.name) at offset \(offset) when asked for "
                        + "\(length) of its \(total)")
            }
            offset += UInt64(chunk.count)
            try await chunkHandler(chunk, CameraTransferProgress(completedByteCount: offset, totalByteCount: total))
        }
        await link.dialect.fileDownloaded(item.id)
    }

    /// Downloads a file with GetObject, handed on in pieces as they arrive.
    private func streamDownload(
        _ item: CameraFileItem, on link: PTPDriverConnection,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws {
        // The item's size is the camera's word, unless it is the 32-bit field's "4 GiB or more".
        let known = item.knownByteCount
        let name = item.name
        let received = try await fileOperation("download \(name)", on: link) {
            try await link.session.object(item.id, chunkSize: configuration.downloadChunkSize) { chunk, progress in
                let announced = progress.totalBytes.map(UInt64.init)
                if let known, let announced, announced != known {
                    throw ViewfinderError(
                        .malformedData, "the camera is sending \(announced) bytes of \(name), which holds \(known)")
                }
                try await chunkHandler(
                    chunk,
                    CameraTransferProgress(
                        completedByteCount: UInt64(progress.completedBytes),
                        totalByteCount: announced ?? known ?? UInt64(progress.completedBytes)))
            }
        }
        if let known, UInt64(received) != known {
            throw ViewfinderError(.malformedData, "the camera sent \(received) bytes of \(name), which holds \(known)")
        }
    }

    /// The thumbnail the camera keeps for a file, usually a small JPEG.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the file has none.
    public func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        let link = try requireFileAccess(for: "read the thumbnail of \(item.name)")
        do {
            return try await fileOperation("read the thumbnail of \(item.name)", on: link) {
                try await link.session.thumbnail(item.id)
            }
        } catch let error as ViewfinderError where error.responseCode == PTPResponseCode.noThumbnailPresent.rawValue {
            throw ViewfinderError(
                .notAvailable, "\(item.name) has no thumbnail on the camera", responseCode: error.responseCode)
        }
    }

    /// Deletes a file from the card.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera cannot delete over PTP/IP,
    ///   `ViewfinderError/Code/permissionDenied` for a protected file or a read-only card,
    ///   `ViewfinderError/Code/notFound` for a file that is gone.
    public func delete(_ item: CameraFileItem) async throws {
        let link = try requireFileAccess(for: "delete \(item.name)")
        guard link.functionality.contains(.fileDeletion) else {
            throw ViewfinderError(.notAvailable, "\(link.ptpDeviceInfo.model) cannot delete files over PTP/IP")
        }
        try await fileOperation("delete \(item.name)", on: link) {
            try await link.session.deleteObject(item.id)
        }
    }

    private func requireFileAccess(for activity: String) throws(ViewfinderError) -> PTPDriverConnection {
        try driverCore.connection(.fileAccess, for: activity)
    }

    /// Runs a file operation, turning the camera's refusals into the codes of the file API, and a session that ended
    /// under it into the error that ended it.
    private func fileOperation<Result: Sendable>(
        _ activity: String, on link: PTPDriverConnection, _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        do {
            try await link.dialect.prepareFileAccess()
            return try await body()
        } catch let error as ViewfinderError where error.code == .notConnected {
            throw driverCore.passingOn(error, from: link, while: activity)
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            let code = error.responseCode.map(PTPResponseCode.init(rawValue:))
            let kind: ViewfinderError.Code
            switch code {
            case .invalidObjectHandle, .invalidStorageID, .invalidParentObject: kind = .notFound
            case .objectWriteProtected, .storeReadOnly, .accessDenied: kind = .permissionDenied
            case .deviceBusy: kind = .deviceBusy
            default: throw error
            }
            throw ViewfinderError(
                kind, "cannot \(activity): the camera answered \(code.map(\.description) ?? "an error")",
                responseCode: error.responseCode)
        }
    }

    static func hex(_ value: UInt32) -> String {
        "0x" + String(value, radix: 16, uppercase: true)
    }
}

extension CameraFileItem {
    /// A file record from an object's PTP information.
    init(handle: UInt32, info: PTPObjectInfo) {
        let kind: Kind
        let suffix = info.filename.split(separator: ".").last.map { $0.uppercased() } ?? ""
        switch info.format {
        case .association:
            kind = .folder
        case .exifJPEG, .jfif:
            kind = .jpegImage
        case .quickTime:
            kind = .video
        default:
            if ["NEF", "NRW", "CR2", "CR3", "ARW", "RAF", "ORF", "RW2", "DNG", "PEF"].contains(suffix) {
                kind = .rawImage
            } else if ["MOV", "MP4", "AVI", "MTS"].contains(suffix) {
                kind = .video
            } else if ["JPG", "JPEG"].contains(suffix) {
                kind = .jpegImage
            } else {
                kind = .other
            }
        }
        let hasSize = info.imagePixelWidth > 0 && info.imagePixelHeight > 0
        self.init(
            id: handle, storageID: info.storageID, parentID: info.parentObject == 0 ? nil : info.parentObject,
            name: info.filename, kind: kind, byteCount: UInt64(info.compressedSize),
            captureDate: info.captureDate.isEmpty ? nil : info.captureDate,
            pixelSize: hasSize ? Dimensions(width: Int(info.imagePixelWidth), height: Int(info.imagePixelHeight)) : nil)
    }
}

/// A folder's listing in one of the bulk forms cameras offer.
private enum BulkListing: Sendable {
    /// Canon EOS's GetObjectInfoEx records.
    case canonEOS([CanonEOSObjectEntry])
    /// MTP's GetObjectPropList properties.
    case mtp(MTPObjectPropList)
}
