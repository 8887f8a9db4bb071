/// The cameras that searchers announced, merged: one entry per camera however many ways and times it was seen.
///
/// Announcements are kept under their searcher's key until they say goodbye or their lifetime runs out; those that
/// name the same camera (the same ID, or the same address) make one entry. At most ``maximumAnnouncements`` are
/// kept, so a flood of made-up cameras costs bounded memory.
struct DiscoveredCameraList {
    private struct Announcement {
        var camera: DiscoveredCamera
        var expiry: ContinuousClock.Instant
        /// When the announcement was first heard, which keeps a merged camera's ID: the first heard gives it.
        var order: UInt64
    }

    /// The most announcements kept; more new ones are ignored until some go.
    static let maximumAnnouncements = 256

    private var announcements: [String: Announcement] = [:]
    private var heard: UInt64 = 0
    /// The ID of the camera each announcement belonged to at the last merge, so an entry keeps its ID while the
    /// announcements that make it come and go.
    private var entryOfKey: [String: String] = [:]
    /// The merged cameras, by name.
    private(set) var cameras: [DiscoveredCamera] = []

    /// Takes a searcher's report.
    mutating func apply(_ event: CameraSearchEvent, at now: ContinuousClock.Instant) -> [CameraDiscoveryChange] {
        switch event {
        case .seen(let key, let camera, let lifetime):
            guard announcements[key] != nil || announcements.count < Self.maximumAnnouncements else { return [] }
            heard += 1
            announcements[key] = Announcement(
                camera: camera, expiry: now + lifetime, order: announcements[key]?.order ?? heard)
        case .gone(let key):
            guard announcements.removeValue(forKey: key) != nil else { return [] }
        }
        return merge()
    }

    /// Drops the announcements whose lifetime has run out.
    mutating func expire(at now: ContinuousClock.Instant) -> [CameraDiscoveryChange] {
        let before = announcements.count
        announcements = announcements.filter { $0.value.expiry > now }
        return announcements.count == before ? [] : merge()
    }

    /// Forgets every announcement, as when searching stops.
    mutating func removeAll() -> [CameraDiscoveryChange] {
        announcements = [:]
        return merge()
    }

    /// When the next announcement runs out.
    var nextExpiry: ContinuousClock.Instant? {
        announcements.values.map(\.expiry).min()
    }

    /// Recomputes the cameras and says what changed.
    private mutating func merge() -> [CameraDiscoveryChange] {
        // Announcements that share an ID or an address join one group (union-find over the sorted keys).
        let keys = announcements.keys.sorted { announcements[$0]!.order < announcements[$1]!.order }
        let members = keys.map { announcements[$0]!.camera }
        var parent = Array(members.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        var firstWithID: [String: Int] = [:]
        var firstAtHost: [String: Int] = [:]
        for (index, camera) in members.enumerated() {
            // Announcements from one host are one camera, whatever ports they give; USB places stand for themselves.
            let place = camera.address.host ?? camera.address.description
            for first in [firstWithID[camera.id], firstAtHost[place]].compactMap({ $0 }) {
                parent[root(index)] = root(first)
            }
            firstWithID[camera.id] = firstWithID[camera.id] ?? index
            firstAtHost[place] = firstAtHost[place] ?? index
        }
        let groups = Dictionary(grouping: members.indices, by: root).values.map { $0.sorted() }
        var merged: [DiscoveredCamera] = []
        var entries: [String: String] = [:]
        let previous = entryOfKey
        for group in groups {
            var camera = Self.merged(group.map { members[$0] })
            camera.id = group.lazy.compactMap { previous[keys[$0]] }.first ?? members[group[0]].id
            for index in group { entries[keys[index]] = camera.id }
            merged.append(camera)
        }
        entryOfKey = entries
        merged.sort { ($0.name, $0.id) < ($1.name, $1.id) }
        let old = Dictionary(cameras.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Set(merged.map(\.id))
        var changes: [CameraDiscoveryChange] = []
        for camera in merged {
            if let before = old[camera.id] {
                if before != camera { changes.append(.updated(camera)) }
            } else {
                changes.append(.discovered(camera))
            }
        }
        changes += cameras.filter { !new.contains($0.id) }.map { .lost($0) }
        cameras = merged
        return changes
    }

    /// One camera from the announcements that name it, listed first heard first.
    ///
    /// SSDP's word comes first (its description says the most), then the first that says each thing; the ID is
    /// the caller's to choose.
    private static func merged(_ group: [DiscoveredCamera]) -> DiscoveredCamera {
        let ordered = group.filter { $0.foundBy.contains(.ssdp) } + group.filter { !$0.foundBy.contains(.ssdp) }
        var camera = ordered[0]
        for other in ordered.dropFirst() {
            if camera.family == .genericPTPIP { camera.family = other.family }
            if camera.model.isEmpty { camera.model = other.model }
            if camera.manufacturer.isEmpty { camera.manufacturer = other.manufacturer }
            camera.serialNumber = camera.serialNumber ?? other.serialNumber
            if case .network(let host, nil, let path) = camera.address, let port = other.address.port {
                camera.address = .network(host: host, port: port, path: path)
            }
            camera.foundBy.formUnion(other.foundBy)
        }
        return camera
    }
}
