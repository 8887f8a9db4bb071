import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension SimulatedCamera {
    /// Answers the operations on storages and objects.
    func respondToStorage(_ request: SimulatorRequest) -> SimulatorReply {
        state.withLock { state in
            switch request.code {
            case .getStorageIDs:
                var writer = PTPDataWriter()
                writer.append(array: [SimulatedStorage.storageID])
                return .data(writer.bytes)
            case .getStorageInfo:
                guard request.parameter(0) == SimulatedStorage.storageID else {
                    return SimulatorReply(code: .invalidStorageID)
                }
                return (try? state.storage.storageInfo.encoded()).map(SimulatorReply.data)
                    ?? SimulatorReply(code: .generalError)
            case .getNumObjects, .getObjectHandles:
                let format = PTPObjectFormatCode(rawValue: UInt16(truncatingIfNeeded: request.parameter(1) ?? 0))
                let (handles, code) = state.storage.handles(
                    storageID: request.parameter(0) ?? 0xFFFF_FFFF, format: format, parent: request.parameter(2) ?? 0)
                guard code == .ok else { return SimulatorReply(code: code) }
                guard request.code == .getObjectHandles else {
                    return SimulatorReply(code: .ok, parameters: [UInt32(handles.count)])
                }
                var writer = PTPDataWriter()
                writer.append(array: handles)
                return .data(writer.bytes)
            case .deleteObject:
                return delete(request.parameter(0), from: &state)
            case .getObjectPropList:
                return objectPropList(request, in: state)
            case .canonEOSGetObjectInfoEx:
                return canonEOSObjectEntries(request, in: state)
            default:
                return respondToObject(request, in: state)
            }
        }
    }

    private func respondToObject(_ request: SimulatorRequest, in state: State) -> SimulatorReply {
        guard let handle = request.parameter(0), let object = state.storage.objects[handle] else {
            return SimulatorReply(code: request.parameters.isEmpty ? .invalidParameter : .invalidObjectHandle)
        }
        switch request.code {
        case .getObjectInfo:
            return (try? object.info.encoded()).map(SimulatorReply.data) ?? SimulatorReply(code: .generalError)
        case .getObject:
            guard let data = object.data else { return SimulatorReply(code: .invalidObjectHandle) }
            return SimulatorReply(code: .ok, data: .object(data, 0..<data.count))
        case .getPartialObject:
            guard let data = object.data, let offset = request.parameter(1), let maximum = request.parameter(2) else {
                return SimulatorReply(code: object.data == nil ? .invalidObjectHandle : .invalidParameter)
            }
            guard UInt64(offset) <= data.count else { return SimulatorReply(code: .invalidParameter) }
            let end = min(data.count, UInt64(offset) + UInt64(maximum))
            return SimulatorReply(
                code: .ok, parameters: [UInt32(end - UInt64(offset))], data: .object(data, UInt64(offset)..<end))
        case .getObjectPropValue:
            // MTP's object properties: only ObjectSize, the 64-bit size of files of 4 GiB or more.
            guard request.parameter(1) == UInt32(PTPObjectPropertyCode.objectSize.rawValue) else {
                return SimulatorReply(code: .invalidObjectPropCode)
            }
            var writer = PTPDataWriter()
            writer.append(object.data?.count ?? 0)
            return .data(writer.bytes)
        case .getThumb:
            guard let thumbnail = object.thumbnail else { return SimulatorReply(code: .noThumbnailPresent) }
            return .data(thumbnail)
        default:
            return SimulatorReply(code: .operationNotSupported)
        }
    }

    /// MTP's GetObjectPropList: every property the card knows (or the one asked for) of one object (depth 0), of a
    /// folder's children (depth 1; the top of the card for handle 0), or of every object (handle `0xFFFFFFFF`).
    private func objectPropList(_ request: SimulatorRequest, in state: State) -> SimulatorReply {
        let handle = request.parameter(0) ?? 0
        let format = PTPObjectFormatCode(rawValue: UInt16(truncatingIfNeeded: request.parameter(1) ?? 0))
        let property = request.parameter(2) ?? 0xFFFF_FFFF
        let depth = request.parameter(4) ?? 0
        guard property != 0 else { return SimulatorReply(code: .specificationByGroupUnsupported) }
        let handles: [UInt32]
        switch (handle, depth) {
        case (0xFFFF_FFFF, _):
            handles = state.storage.handles(storageID: 0xFFFF_FFFF, format: format, parent: 0).handles
        case (0, 0):
            handles = []
        case (_, 0):
            guard state.storage.objects[handle] != nil, !state.storage.isHeldForTransfer(handle) else {
                return SimulatorReply(code: .invalidObjectHandle)
            }
            handles = [handle]
        case (_, 1):
            let (children, code) = state.storage.handles(
                storageID: 0xFFFF_FFFF, format: format, parent: handle == 0 ? 0xFFFF_FFFF : handle)
            guard code == .ok else { return SimulatorReply(code: code) }
            handles = children
        default:
            return SimulatorReply(code: .specificationByDepthUnsupported)
        }
        var elements: [MTPObjectPropList.Element] = []
        for handle in handles {
            guard let object = state.storage.objects[handle] else { continue }
            let info = object.info
            let values: [(PTPObjectPropertyCode, PTPValue)] = [
                (.storageID, .uint32(info.storageID)), (.objectFormat, .uint16(info.format.rawValue)),
                (.protectionStatus, .uint16(info.protectionStatus)), (.objectSize, .uint64(object.data?.count ?? 0)),
                (.objectFileName, .string(info.filename)), (.dateCreated, .string(info.captureDate)),
                (.dateModified, .string(info.modificationDate)), (.parentObject, .uint32(info.parentObject)),
            ]
            for (code, value) in values where property == 0xFFFF_FFFF || property == UInt32(code.rawValue) {
                elements.append(MTPObjectPropList.Element(handle: handle, property: code, value: value))
            }
        }
        guard property == 0xFFFF_FFFF || !elements.isEmpty || handles.isEmpty else {
            return SimulatorReply(code: .invalidObjectPropCode)
        }
        return (try? MTPObjectPropList(elements: elements).encoded()).map(SimulatorReply.data)
            ?? SimulatorReply(code: .generalError)
    }

    /// Canon EOS's GetObjectInfoEx: a folder's objects (the top of the card for `0xFFFFFFFF`), a record each.
    private func canonEOSObjectEntries(_ request: SimulatorRequest, in state: State) -> SimulatorReply {
        let folder = request.parameter(1) ?? 0xFFFF_FFFF
        let (handles, code) = state.storage.handles(
            storageID: request.parameter(0) ?? 0xFFFF_FFFF, format: .any, parent: folder)
        guard code == .ok else { return SimulatorReply(code: code) }
        let entries = handles.compactMap { handle -> CanonEOSObjectEntry? in
            guard let info = state.storage.objects[handle]?.info else { return nil }
            return CanonEOSObjectEntry(
                handle: handle, storageID: info.storageID, format: info.format,
                flags: info.protectionStatus == 0 ? 0 : 1, size: info.compressedSize, filename: info.filename,
                time: UInt32(clamping: PTPDate.secondsSince1970(info.captureDate) ?? 0))
        }
        return .data(CanonEOSObjectEntry.encoded(entries, parent: folder))
    }

    /// Deletes one file, or every file for `0xFFFFFFFF`; folders stay.
    private func delete(_ handle: UInt32?, from state: inout State) -> SimulatorReply {
        guard let handle else { return SimulatorReply(code: .invalidParameter) }
        let doomed: [UInt32]
        if handle == 0xFFFF_FFFF {
            doomed = state.storage.fileHandles
        } else {
            guard let object = state.storage.objects[handle] else { return SimulatorReply(code: .invalidObjectHandle) }
            guard !object.info.isFolder else { return SimulatorReply(code: .accessDenied) }
            doomed = [handle]
        }
        for handle in doomed {
            state.storage.remove(handle)
        }
        let removed = doomed.map { PTPEvent(code: .objectRemoved, parameters: [$0]) }
        let changed = PTPEvent(code: .storageInfoChanged, parameters: [SimulatedStorage.storageID])
        return SimulatorReply(code: .ok, events: removed + (doomed.isEmpty ? [] : [changed]))
    }

    /// Starts a capture: answers at once, then renders the image and reports ObjectAdded and CaptureComplete.
    func initiateCapture(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply {
        let storage = request.parameter(0) ?? 0
        let format = request.parameter(1) ?? 0
        guard storage == 0 || storage == SimulatedStorage.storageID else {
            return SimulatorReply(code: .invalidStorageID)
        }
        guard format == 0 || format == UInt32(PTPObjectFormatCode.exifJPEG.rawValue) else {
            return SimulatorReply(code: .invalidObjectFormatCode)
        }
        return startCapture(transactionID: request.transactionID, in: context) ? .ok : SimulatorReply(code: .deviceBusy)
    }

    /// Opens the shutter and, after the exposure, renders the image, stores it and reports it as the identity does.
    ///
    /// With `held`, the shutter stays open until ``releaseHeldShutter(in:)`` lets it go, and at least for the set
    /// exposure time: the shutter button held fully down, as for a bulb exposure.
    ///
    /// - Returns: `false` when a capture is under way already.
    func startCapture(transactionID: UInt32, held: Bool = false, in context: SimulatorSessionContext) -> Bool {
        let now = ContinuousClock.now
        let exposure: HeldExposure? = state.withLock { state in
            guard !state.isCapturing else { return nil }
            state.isCapturing = true
            state.lastShutterRelease = now
            if configuration.identity == .canon { state.canon.pending.append(.cameraStatus(1)) }
            let settings = Self.exposureSettings(of: state, sceneEV: configuration.sceneEV)
            var size = Self.dimensions(of: Self.imageSizes.last!)
            if case .string(let text) = state.properties[.imageSize]?.value {
                size = Self.dimensions(of: text)
            }
            let exposure = HeldExposure(
                since: now, transactionID: transactionID,
                lighting: Self.lighting(of: state, sceneEV: configuration.sceneEV),
                size: size, time: epoch.duration(to: now).inSeconds,
                // The set exposure time, at most a second here.
                minimum: .milliseconds(Int(min(settings.seconds, 1) * 1000)))
            if held { state.heldExposure = exposure }
            return exposure
        }
        guard let exposure else { return false }
        if !held {
            closeShutter(exposure, at: now, in: context)
        }
        return true
    }

    /// Lets go of the shutter held since ``startCapture(transactionID:held:in:)``; does nothing when none is held.
    ///
    /// The exposure ends, having lasted as long as the shutter was held and at least the set time, and the camera
    /// writes the file.
    func releaseHeldShutter(in context: SimulatorSessionContext) {
        let now = ContinuousClock.now
        guard
            let exposure = state.withLock({ state in
                defer { state.heldExposure = nil }
                return state.heldExposure
            })
        else { return }
        closeShutter(exposure, at: now, in: context)
    }

    /// Ends `exposure` once it has lasted its set time, or at `now` when it was held longer, records its length and
    /// writes the file.
    private func closeShutter(
        _ exposure: HeldExposure, at now: ContinuousClock.Instant, in context: SimulatorSessionContext
    ) {
        let length = max(exposure.since.duration(to: now), exposure.minimum)
        state.withLock { state in
            state.exposures.append((exposure.since, length))
            state.exposures.removeFirst(max(0, state.exposures.count - Self.maximumExposures))
        }
        configuration.log?("exposure: the shutter stayed open for \(Int(length.inSeconds * 1000)) ms")
        let remaining = max(now.duration(to: exposure.since + length), .zero)
        context.schedule(after: remaining + .milliseconds(10)) { [self] in
            finishCapture(
                transactionID: exposure.transactionID, lighting: exposure.lighting, size: exposure.size,
                time: exposure.time)
        }
    }

    private func finishCapture(
        transactionID: UInt32, lighting: TestScene.Lighting, size: Dimensions, time: Double
    ) -> [PTPEvent] {
        let image: Image
        do {
            image = try makeImage(lighting: lighting, size: size, time: time)
        } catch {
            state.withLock { $0.isCapturing = false }
            configuration.log?("capture failed: \(error)")
            return []
        }
        let date = currentDate()
        let (handle, name) = state.withLock { state in
            state.isCapturing = false
            let name = state.storage.nextFilename(extension: "JPG")
            let handle = state.storage.addFile(
                named: name, format: .exifJPEG, data: image.jpeg, thumbnail: image.thumbnail, imageSize: image.size,
                date: date)
            return (handle, name)
        }
        configuration.log?("captured \(name) (\(image.jpeg.count) bytes) as object 0x\(String(handle, radix: 16))")
        if let directory = configuration.captureArchiveDirectory {
            archive(image.jpeg, named: name, in: directory)
        }
        if configuration.identity == .canon {
            reportCanonEOSCapture(handle, name: name, size: image.jpeg.count)
            return []
        }
        if configuration.identity.isSony {
            return reportSonyCapture(handle)
        }
        let added = PTPEvent(code: .objectAdded, parameters: [handle])
        guard configuration.reportsCaptureComplete else { return [added] }
        return [added, PTPEvent(code: .captureComplete, transactionID: transactionID)]
    }

    /// Writes a copy of a captured file, so a check can compare a download with what the camera stored.
    private func archive(_ bytes: [UInt8], named name: String, in directory: String) {
        let path = directory + "/" + name
        do {
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC)
            try file.writeAll(bytes)
            try file.close()
        } catch {
            configuration.log?("cannot write \(path): \(error)")
        }
    }
}
