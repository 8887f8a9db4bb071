/// A publisher that creates a new publisher for each subscriber, when it attaches.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The created publisher's value type.
    public typealias Output = DeferredPublisher.Output
    /// The created publisher's failure type.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure that creates a publisher for each subscriber.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a publisher that calls `createPublisher` for each subscriber.
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates a publisher and attaches the subscriber to it.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}
