/// Listens for cameras announcing themselves in one way, such as SSDP or multicast DNS, for ``CameraDiscovery``.
///
/// A discovery module provides searchers and registers them with `CameraDiscovery.shared`; discovery merges what
/// every searcher reports into one list, and decides when an announcement has run out.
public protocol CameraSearcher: Sendable {
    /// Starts listening and asking, reporting each announcement and each goodbye to `report`, from any thread.
    ///
    /// - Throws: ``ViewfinderError`` when the searcher cannot listen (no network, the port refused).
    func startSearching(report: @escaping @Sendable (CameraSearchEvent) -> Void) throws

    /// Stops listening; nothing is reported after it returns.
    func stopSearching()
}

/// What a ``CameraSearcher`` reports.
public enum CameraSearchEvent: Hashable, Sendable {
    /// A camera announced itself: what it says, under a key unique to the searcher (its service instance or its
    /// USN), valid for `lifetime` unless announced again.
    case seen(key: String, camera: DiscoveredCamera, lifetime: Duration)
    /// The camera announced under `key` said goodbye.
    case gone(key: String)
}
