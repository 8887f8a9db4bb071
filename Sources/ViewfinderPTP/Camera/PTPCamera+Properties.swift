import ViewfinderCore

extension PTPCamera {
    /// The camera's property for an identifier, the same object for every call; `nil`-valued until the camera
    /// reports it.
    public func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value> {
        properties.property(for: identifier, backend: self)
    }

    /// Sends a property's new value through the camera's dialect, returning once the camera has taken it.
    ///
    /// - Throws: `ViewfinderError/Code/invalidPropertyValue` when the camera refuses the value,
    ///   `ViewfinderError/Code/notAvailable` when the camera does not let the property be set now (its exposure
    ///   mode sets it) or does not have it, `ViewfinderError/Code/deviceBusy`, `ViewfinderError/Code/notConnected`,
    ///   or `ViewfinderError/Code/disconnected` or `ViewfinderError/Code/timeout` when the camera went away.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        let link = try requireLink(for: "set \(name)")
        do {
            try await link.dialect.setRawValue(rawValue, forPropertyNamed: name)
        } catch let error as ViewfinderError {
            throw lostSessionError(error, of: link, while: "set \(name)")
        }
    }

    /// Asks the camera, through its dialect, to move a stepping property `steps` steps up or down.
    public func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        let link = try requireLink(for: "step \(name)")
        do {
            try await link.dialect.stepValue(forPropertyNamed: name, by: steps)
        } catch let error as ViewfinderError {
            throw lostSessionError(error, of: link, while: "step \(name)")
        }
    }
}
