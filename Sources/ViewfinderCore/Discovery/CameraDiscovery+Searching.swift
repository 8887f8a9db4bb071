import ViewfinderReactive
import ViewfinderSystem

extension CameraDiscovery {
    /// Starts listening for cameras that announce themselves, with every registered searcher; does nothing when
    /// already searching.
    ///
    /// Found cameras appear in ``availableCameras`` and reach discovery observers. A searcher that cannot listen
    /// (no network) is skipped, and its error kept in ``searchErrors``.
    ///
    /// ```swift
    /// let discovery = CameraDiscovery.shared
    /// let token = discovery.addDiscoveryObserver { change in
    ///     if case .discovered(let camera) = change { print("found \(camera)") }
    /// }
    /// discovery.beginSearching()
    /// ```
    public func beginSearching() {
        search.begin()
    }

    /// Stops listening; every camera found is lost, and observers hear so.
    public func stopSearching() {
        search.stop()
    }

    /// Whether discovery is searching.
    public var isSearching: Bool { search.isSearching }

    /// The cameras announced and not lost since searching began, by name.
    public var availableCameras: [DiscoveredCamera] { search.cameras }

    /// Why searchers could not listen when searching began; empty when every one listens.
    public var searchErrors: [ViewfinderError] { search.errors }

    /// How many changes were dropped, oldest first, because observers were busy while more than 1024 waited.
    public var droppedChangeCount: Int { search.changes.droppedCount }

    /// Adds a searcher, which listens from the next ``beginSearching()`` on.
    public func register(_ searcher: any CameraSearcher) {
        search.register(searcher)
    }

    /// Calls `observer` with each camera discovered, updated or lost, one change at a time and in order.
    ///
    /// Changes that come while an observer is busy wait for it, the newest 1024 of them; older ones are dropped and
    /// counted in ``droppedChangeCount``, and ``availableCameras`` stays whole.
    ///
    /// - Returns: A token: the observer is called while it is alive.
    public func addDiscoveryObserver(_ observer: @escaping @Sendable (CameraDiscoveryChange) -> Void)
        -> ObservationToken
    {
        search.changes.addObserver { changes in
            for change in changes { observer(change) }
        }
    }

    /// The available cameras as they are when a subscriber first asks, then after each change.
    ///
    /// For `for await`, use the publisher's `values`.
    public func availableCamerasPublisher() -> CameraStatePublisher<[DiscoveredCamera]> {
        CameraStatePublisher(
            observe: { [search] changed in search.changes.addObserver { _ in changed() } },
            read: { [search] in search.cameras })
    }

    /// A camera object for a discovered camera, not yet connected: its family's connector at its address.
    ///
    /// - Throws: As ``ManualCameraDiscovery/discover(_:)``.
    public func camera(for discovered: DiscoveredCamera) async throws -> any Camera {
        try await manualDiscovery.discover(.camera(discovered.family, at: discovered.address))
    }
}

/// What a ``CameraDiscovery`` keeps while it searches: the searchers, the merged list and its observers.
final class CameraSearch: Sendable {
    private struct State {
        var searchers: [any CameraSearcher] = []
        var running: [any CameraSearcher] = []
        var list = DiscoveredCameraList()
        var errors: [ViewfinderError] = []
        var expiry: Task<Void, Never>?
        /// Counts searches, so a report from a search that stopped is ignored.
        var generation = 0
    }

    private let state = Locked(State())
    /// Observers of changes, which arrive in batches and are delivered in order; the newest 1024 wait.
    let changes = CameraObserverRegistry<[CameraDiscoveryChange]>(keepingNewest: 1024)

    var isSearching: Bool { state.withLock { $0.expiry != nil } }
    var cameras: [DiscoveredCamera] { state.withLock { $0.list.cameras } }
    var errors: [ViewfinderError] { state.withLock { $0.errors } }

    func register(_ searcher: any CameraSearcher) {
        state.withLock { $0.searchers.append(searcher) }
    }

    func begin() {
        let started: (searchers: [any CameraSearcher], generation: Int)? = state.withLock { state in
            guard state.expiry == nil else { return nil }
            state.generation += 1
            state.errors = []
            let generation = state.generation
            state.expiry = Task { [weak self] in await self?.expire(generation: generation) }
            return (state.searchers, generation)
        }
        guard let (searchers, generation) = started else { return }
        for searcher in searchers {
            do {
                try searcher.startSearching { [weak self] event in self?.take(event, generation: generation) }
                state.withLock { $0.running.append(searcher) }
            } catch {
                let failure = error as? ViewfinderError ?? ViewfinderError(.io, "\(error)")
                state.withLock { $0.errors.append(failure) }
            }
        }
    }

    func stop() {
        let (running, changes) = state.withLock { state -> ([any CameraSearcher], [CameraDiscoveryChange]) in
            state.expiry?.cancel()
            state.expiry = nil
            state.generation += 1
            defer { state.running = [] }
            return (state.running, state.list.removeAll())
        }
        for searcher in running { searcher.stopSearching() }
        if !changes.isEmpty { self.changes.notify(changes) }
    }

    private func take(_ event: CameraSearchEvent, generation: Int) {
        let changes = state.withLock { state in
            state.generation == generation ? state.list.apply(event, at: .now) : []
        }
        if !changes.isEmpty { self.changes.notify(changes) }
    }

    /// Drops announcements as they run out, while the search lasts.
    private func expire(generation: Int) async {
        while !Task.isCancelled {
            let next = state.withLock { $0.list.nextExpiry } ?? .now + .seconds(1)
            try? await Task.sleep(until: min(next, .now + .seconds(1)) + .milliseconds(1), clock: .continuous)
            let changes = state.withLock { state in
                state.generation == generation ? state.list.expire(at: .now) : []
            }
            if !changes.isEmpty { self.changes.notify(changes) }
        }
    }
}
