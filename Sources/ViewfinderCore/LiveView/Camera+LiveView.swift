extension Camera {
    /// The camera's live view publisher, after applying `options` to it.
    ///
    /// The camera has one publisher, which every call returns: options applied here affect every subscriber.
    /// Pass no options to get the publisher without changing them.
    ///
    /// ```swift
    /// let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
    ///     .receive(on: DispatchQueue.global(qos: .default))
    ///     .sinkWithReadyHandler { completion in
    ///         print("Live view ended with completion reason: \(completion)")
    ///     } receiveValue: { frame, readyForNextFrame in
    ///         forward(frame.jpegData)
    ///         readyForNextFrame()
    ///     }
    /// ```
    ///
    /// - Parameter options: Options to set; options not given keep their values.
    public func liveViewPublisher(options: [LiveViewOption: LiveViewOptionValue]) -> LiveViewPublisher {
        let publisher = liveViewPublisher
        publisher.applyOptions(options)
        return publisher
    }

    /// Applies options to the camera's live view publisher, for every subscriber; options not given keep their
    /// values.
    public func applyLiveViewOptions(_ options: [LiveViewOption: LiveViewOptionValue]) {
        liveViewPublisher.applyOptions(options)
    }
}
