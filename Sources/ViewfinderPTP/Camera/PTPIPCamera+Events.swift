import ViewfinderCore

extension PTPIPCamera {
    /// Acts on one of the camera's events: reads changed properties again, reports new files, completes captures.
    func handle(_ event: PTPEvent, on link: Link) async {
        switch event.code {
        case .devicePropChanged:
            guard let raw = event.parameters.first, let code = UInt16(exactly: raw) else { return }
            await refreshProperty(PTPDevicePropertyCode(rawValue: code), on: link)
        case .objectAdded:
            guard let handle = event.parameters.first else { return }
            await reportNewObject(handle, on: link)
            try? await refreshShotsAvailable(on: link)
        case .objectRemoved, .storageInfoChanged:
            try? await refreshShotsAvailable(on: link)
        case .captureComplete:
            captureCompleted(transactionID: event.transactionID)
        default:
            break
        }
    }

    /// Tells the new-file observers of an object the camera added, once its information is read.
    private func reportNewObject(_ handle: UInt32, on link: Link) async {
        guard newFileObservers.hasObservers, link.deviceInfo.supports(.getObjectInfo),
            let info = try? await link.session.objectInfo(handle)
        else { return }
        newFileObservers.notify(CameraFileItem(handle: handle, info: info))
    }
}
