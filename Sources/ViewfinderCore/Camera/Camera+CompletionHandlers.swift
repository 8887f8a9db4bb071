import Dispatch

extension Camera {
    /// Connects to the camera, then calls `completionHandler` on `completionQueue` with `nil`, or with the error.
    public func connect(
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(on: completionQueue, { try await self.connect() }, completion: completionHandler)
    }

    /// Disconnects from the camera, then calls `completionHandler` on `completionQueue` with `nil`, or with the
    /// error.
    public func disconnect(
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(on: completionQueue, { try await self.disconnect() }, completion: completionHandler)
    }

    /// Takes one picture, then calls `completionHandler` on `completionQueue` with `nil`, or with the error.
    public func invokeOneShotShutterExplicitlyEngagingAutoFocus(
        _ engageAutoFocus: Bool,
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue,
            { try await self.invokeOneShotShutterExplicitlyEngagingAutoFocus(engageAutoFocus) },
            completion: completionHandler)
    }

    /// Holds the shutter button half down to focus, then calls `completionHandler` on `completionQueue` with `nil`, or
    /// with the error.
    public func engageAutoFocus(
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(on: completionQueue, { try await self.engageAutoFocus() }, completion: completionHandler)
    }

    /// Lets go of the half-pressed shutter button, then calls `completionHandler` on `completionQueue` with `nil`, or
    /// with the error.
    public func disengageAutoFocus(
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(on: completionQueue, { try await self.disengageAutoFocus() }, completion: completionHandler)
    }

    /// Holds the shutter button down, then calls `completionHandler` on `completionQueue` with `nil`, or with the
    /// error.
    public func engageShutter(
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(on: completionQueue, { try await self.engageShutter() }, completion: completionHandler)
    }

    /// Lets go of the shutter button, then calls `completionHandler` on `completionQueue` with `nil` once the picture
    /// is taken, or with the error.
    public func disengageShutter(
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(on: completionQueue, { try await self.disengageShutter() }, completion: completionHandler)
    }

    /// Moves the focus one step, then calls `completionHandler` on `completionQueue` with `nil`, or with the error.
    public func driveFocus(
        _ amount: FocusDriveAmount, towards direction: FocusDriveDirection,
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.driveFocus(amount, towards: direction) },
            completion: completionHandler)
    }

    /// Makes the camera serve `categories`, then calls `completionHandler` on `completionQueue` with `nil`, or with the
    /// error.
    public func switchToCommandCategories(
        _ categories: CameraCommandCategories, completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.switchToCommandCategories(categories) },
            completion: completionHandler)
    }

    /// Magnifies the live view, then calls `completionHandler` on `completionQueue` with `nil`, or with the error.
    public func setLiveViewZoomLevel(
        _ level: LiveViewZoomLevel, completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.setLiveViewZoomLevel(level) }, completion: completionHandler)
    }

    /// Sets the camera's clock, then calls `completionHandler` on `completionQueue` with `nil`, or with the error.
    public func updateClock(
        to time: CameraClockTime, completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.updateClock(to: time) }, completion: completionHandler)
    }

    /// Connects with `options`, then calls `completionHandler` on `completionQueue` with the warnings, or with the
    /// error.
    public func connect(
        options: CameraConnectionOptions, completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable (Result<[CameraConnectionWarning], any Error>) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.connect(options: options) }, completion: completionHandler)
    }

    /// Connects with `options`, telling `userIntervention` when the camera waits for its user (see
    /// ``connect(options:userIntervention:)``), then calls `completionHandler` on `completionQueue` with the warnings,
    /// or with the error.
    public func connect(
        options: CameraConnectionOptions = [], completionQueue: DispatchQueue = .global(),
        userIntervention: @escaping @Sendable (CameraUserInterventionEvent) -> Void,
        completionHandler: @escaping @Sendable (Result<[CameraConnectionWarning], any Error>) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.connect(options: options, userIntervention: userIntervention) },
            completion: completionHandler)
    }

    /// Closes the connection, turning the camera off first when `poweringOffCamera` is `true`, then calls
    /// `completionHandler` on `completionQueue` with `nil`, or with the error.
    public func disconnect(
        poweringOffCamera: Bool, completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.disconnect(poweringOffCamera: poweringOffCamera) },
            completion: completionHandler)
    }

    /// Starts recording video, then calls `completionHandler` on `completionQueue` with `nil`, or with the error.
    public func startVideoRecording(
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.startVideoRecording() }, completion: completionHandler)
    }

    /// Stops recording video, then calls `completionHandler` on `completionQueue` with `nil`, or with the error.
    public func stopVideoRecording(
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(on: completionQueue, { try await self.stopVideoRecording() }, completion: completionHandler)
    }

    /// Moves the autofocus point to `point` and focuses there, then calls `completionHandler` on `completionQueue`
    /// with `nil`, or with the error.
    public func touchAutoFocus(
        at point: LiveViewPoint, completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.touchAutoFocus(at: point) }, completion: completionHandler)
    }
}
