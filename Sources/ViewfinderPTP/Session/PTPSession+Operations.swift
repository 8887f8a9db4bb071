import ViewfinderCore

extension PTPSession {
    /// The IDs of the camera's storages, such as its memory cards.
    public func storageIDs() async throws -> [UInt32] {
        try Self.decodeArray(try await dataset(.getStorageIDs), of: "the storage IDs")
    }

    /// What the camera says about a storage.
    public func storageInfo(_ storageID: UInt32) async throws -> PTPStorageInfo {
        try PTPStorageInfo(decoding: try await dataset(.getStorageInfo, parameters: [storageID]))
    }

    /// The handles of objects on the camera's storages.
    ///
    /// - Parameters:
    ///   - storageID: One storage, or `0xFFFFFFFF` for all.
    ///   - format: Only objects of this format, or ``PTPObjectFormatCode/any``.
    ///   - parent: Only objects in this folder; `0xFFFFFFFF` for the storage's root, 0 for objects anywhere.
    public func objectHandles(
        storageID: UInt32 = 0xFFFF_FFFF, format: PTPObjectFormatCode = .any, parent: UInt32 = 0
    ) async throws -> [UInt32] {
        let data = try await dataset(.getObjectHandles, parameters: [storageID, UInt32(format.rawValue), parent])
        return try Self.decodeArray(data, of: "the object handles")
    }

    /// The number of objects on the camera's storages, filtered like ``objectHandles(storageID:format:parent:)``.
    public func numberOfObjects(
        storageID: UInt32 = 0xFFFF_FFFF, format: PTPObjectFormatCode = .any, parent: UInt32 = 0
    ) async throws -> Int {
        let response = try await transaction(
            .getNumObjects, parameters: [storageID, UInt32(format.rawValue), parent]
        ).response
        guard let count = response.parameters.first else {
            throw ViewfinderError(.malformedData, "the camera answered GetNumObjects without a count")
        }
        return Int(count)
    }

    /// What the camera says about an object.
    public func objectInfo(_ handle: UInt32) async throws -> PTPObjectInfo {
        try PTPObjectInfo(decoding: try await dataset(.getObjectInfo, parameters: [handle]))
    }

    /// Properties of many objects in one request, with MTP's GetObjectPropList: every property of the objects in a
    /// folder, where GetObjectInfo takes a request per object.
    ///
    /// - Parameters:
    ///   - handle: The folder; 0 with depth 1 for the objects at the top of every storage.
    ///   - depth: 1 for the folder's children, 0 for the object `handle` alone.
    public func objectPropList(of handle: UInt32, depth: UInt32 = 1) async throws -> MTPObjectPropList {
        try MTPObjectPropList(
            decoding: try await dataset(.getObjectPropList, parameters: [handle, 0, 0xFFFF_FFFF, 0, depth]))
    }

    /// The objects in a folder in one request, with Canon EOS's GetObjectInfoEx, as libgphoto2 lists an EOS
    /// camera's folders.
    ///
    /// - Parameters:
    ///   - storageID: The storage.
    ///   - folder: The folder, or `0xFFFFFFFF` for the top of the storage.
    public func canonEOSObjectEntries(storageID: UInt32, folder: UInt32) async throws -> [CanonEOSObjectEntry] {
        try CanonEOSObjectEntry.list(
            decoding: try await dataset(.canonEOSGetObjectInfoEx, parameters: [storageID, folder, 0x0010_0000]))
    }

    /// An object's bytes, received straight into the returned array.
    ///
    /// - Parameters:
    ///   - handle: The object.
    ///   - progress: Called on the session's I/O thread as bytes arrive.
    public func object(
        _ handle: UInt32, progress: (@Sendable (PTPTransferProgress) -> Void)? = nil
    ) async throws -> [UInt8] {
        try await transaction(.getObject, parameters: [handle], progress: progress).data
    }

    /// An object's size from MTP's ObjectSize property, for objects of 4 GiB or more, whose ObjectInfo says
    /// `0xFFFFFFFF`.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the camera's answer is not one 64-bit integer.
    public func objectSize(_ handle: UInt32) async throws -> UInt64 {
        let data = try await transaction(
            .getObjectPropValue, parameters: [handle, UInt32(PTPObjectPropertyCode.objectSize.rawValue)]
        ).data
        var reader = PTPDataReader(data, reading: "the ObjectSize of object \(handle)")
        let size = try reader.read(UInt64.self)
        guard reader.isAtEnd else {
            throw ViewfinderError(.malformedData, "the ObjectSize of object \(handle) is \(data.count) bytes, not 8")
        }
        return size
    }

    /// Downloads an object with GetObject, handing it to `chunkHandler` in chunks of `chunkSize` bytes (the last
    /// may be shorter) as it arrives; at most two chunks wait for the handler, so a slow handler slows the transfer
    /// instead of growing memory, whatever the object's size.
    ///
    /// - Parameters:
    ///   - handle: The object.
    ///   - chunkSize: The size of each chunk but the last.
    ///   - chunkHandler: Called with each chunk in order, and the progress so far, before the next chunk is handed
    ///     on; when it throws, the rest of the object is drained (the session stays usable) and this rethrows.
    /// - Returns: How many bytes the object held.
    @discardableResult
    public func object(
        _ handle: UInt32, chunkSize: Int,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: PTPTransferProgress) async throws -> Void
    ) async throws -> Int {
        let handoff = PTPChunkHandoff(chunkSize: chunkSize)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    _ = try await self.transaction(
                        .getObject, parameters: [handle], progress: { handoff.announce(totalBytes: $0.totalBytes) },
                        receiving: { try handoff.append($0) })
                    handoff.finish()
                } catch {
                    handoff.finish(throwing: error)
                    throw error
                }
            }
            var completed = 0
            do {
                while let chunk = try await handoff.next() {
                    completed += chunk.count
                    try await chunkHandler(
                        chunk, PTPTransferProgress(completedBytes: completed, totalBytes: handoff.totalBytes))
                }
            } catch {
                handoff.stop(error)
                // The transfer drains the rest and ends with this same error, or with its own.
                while (try? await group.next()) != nil {}
                throw error
            }
            try await group.waitForAll()
            return completed
        }
    }

    /// Up to `maximumLength` bytes of an object from `offset`.
    public func partialObject(_ handle: UInt32, offset: UInt32, maximumLength: UInt32) async throws -> [UInt8] {
        try await transaction(.getPartialObject, parameters: [handle, offset, maximumLength]).data
    }

    /// An object's thumbnail, usually a small JPEG.
    public func thumbnail(_ handle: UInt32) async throws -> [UInt8] {
        try await transaction(.getThumb, parameters: [handle]).data
    }

    /// Deletes an object.
    public func deleteObject(_ handle: UInt32) async throws {
        _ = try await transaction(.deleteObject, parameters: [handle, 0])
    }

    /// Releases the shutter.
    ///
    /// The image arrives later as an ``PTPEventCode/objectAdded`` event, followed by ``PTPEventCode/captureComplete``.
    ///
    /// - Parameters:
    ///   - storageID: Where to store the image; 0 lets the camera choose.
    ///   - format: The format to capture in; ``PTPObjectFormatCode/any`` lets the camera choose.
    ///   - timeout: How long to wait for the camera's answer, which some cameras give only after the exposure; the
    ///     transport's own timeout when `nil`.
    /// - Returns: The transaction ID the ``PTPEventCode/captureComplete`` event will carry.
    @discardableResult
    public func initiateCapture(
        storageID: UInt32 = 0, format: PTPObjectFormatCode = .any, timeout: Duration? = nil
    ) async throws -> UInt32 {
        try await transaction(.initiateCapture, parameters: [storageID, UInt32(format.rawValue)], timeout: timeout)
            .response.transactionID
    }

    /// A property's description: its type, current value and the values it accepts.
    public func propertyDescription(_ property: PTPDevicePropertyCode) async throws -> PTPDevicePropertyDescription {
        try PTPDevicePropertyDescription(
            decoding: try await dataset(.getDevicePropDesc, parameters: [UInt32(property.rawValue)]))
    }

    /// A property's current value.
    ///
    /// - Parameters:
    ///   - property: The property.
    ///   - type: The property's data type, as its description gives it.
    public func propertyValue(_ property: PTPDevicePropertyCode, of type: PTPDataType) async throws -> PTPValue {
        let data = try await dataset(.getDevicePropValue, parameters: [UInt32(property.rawValue)])
        var reader = PTPDataReader(data, reading: "the value of \(property)")
        let value = try reader.readValue(of: type)
        try reader.expectEnd()
        return value
    }

    /// Sets a property.
    ///
    /// - Throws: `ViewfinderError/Code/protocolFailure` with
    ///   ``PTPResponseCode/invalidDevicePropValue`` when the camera does not accept the value, or
    ///   ``PTPResponseCode/accessDenied`` when the property cannot be set now.
    public func setPropertyValue(_ property: PTPDevicePropertyCode, to value: PTPValue) async throws {
        var writer = PTPDataWriter()
        try writer.append(value: value)
        _ = try await transaction(.setDevicePropValue, parameters: [UInt32(property.rawValue)], sending: writer.bytes)
    }

    /// Sets a property back to its factory default.
    public func resetPropertyValue(_ property: PTPDevicePropertyCode) async throws {
        _ = try await transaction(.resetDevicePropValue, parameters: [UInt32(property.rawValue)])
    }

    static func decodeArray(_ data: [UInt8], of what: String) throws(ViewfinderError) -> [UInt32] {
        var reader = PTPDataReader(data, reading: what)
        let values = try reader.readArray(of: UInt32.self)
        try reader.expectEnd()
        return values
    }
}
