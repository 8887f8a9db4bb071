import ViewfinderCore
import ViewfinderReactive

extension CameraRig {
    /// Watches every camera's live view at once, each camera's frames paced by the caller.
    ///
    /// Each camera's frames come one at a time: the next frame of a camera is fetched only once the ready handler
    /// of its last frame has been called, so a camera whose frames are handled slowly sends fewer of them, and never
    /// slows the others. A camera whose live view ends, or fails to start, reports it through `receiveCompletion`;
    /// the other cameras go on.
    ///
    /// ```swift
    /// let watching = rig.liveView(options: [.maximumFramesPerSecond: 15]) { camera, completion in
    ///     print("\(camera): live view ended: \(completion)")
    /// } receiveFrame: { camera, frame, readyForNextFrame in
    ///     show(frame, from: camera)
    ///     readyForNextFrame()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: Options applied to every camera's live view publisher (they affect its other subscribers too).
    ///   - receiveCompletion: Called once per camera when its live view ends, with the camera's name.
    ///   - receiveFrame: Called with each frame and the name of the camera it came from; call the ready handler when
    ///     ready for that camera's next frame.
    /// - Returns: Keep it as long as frames should come; cancelling it, or releasing it, ends every camera's stream.
    public func liveView(
        options: [LiveViewOption: LiveViewOptionValue] = [:],
        receiveCompletion:
            @escaping @Sendable (_ camera: String, Subscribers.Completion<LiveViewTerminationReason>)
            -> Void,
        receiveFrame:
            @escaping @Sendable (
                _ camera: String, _ frame: LiveViewFrame, _ readyForNextFrame: @escaping Subscribers.ReadyHandler
            ) -> Void
    ) -> AnyCancellable {
        let streams = members.map { member in
            member.camera.liveViewPublisher(options: options).sinkWithReadyHandler { completion in
                receiveCompletion(member.name, completion)
            } receiveValue: { frame, ready in
                receiveFrame(member.name, frame, ready)
            }
        }
        return AnyCancellable {
            for stream in streams { stream.cancel() }
        }
    }
}
