// Chained `combineLatest` calls nest their tuples to the left: `a.combineLatest(b).combineLatest(c)` publishes
// `((A, B), C)`. `flatten()` turns that into `(A, B, C)`, for two to eight values.

extension Publisher {
    /// Passes on pairs unchanged, so that `a.combineLatest(b).flatten()` reads like longer chains.
    public func flatten<A, B>() -> Publishers.Map<Self, (A, B)> where Output == (A, B) {
        map { $0 }
    }

    /// Flattens `((A, B), C)` into `(A, B, C)`.
    ///
    /// ```swift
    /// shutterSpeed.combineLatest(aperture).combineLatest(iso)
    ///     .flatten()
    ///     .sink { shutter, aperture, iso in print(shutter, aperture, iso) }
    /// ```
    public func flatten<A, B, C>() -> Publishers.Map<Self, (A, B, C)> where Output == ((A, B), C) {
        map { ($0.0.0, $0.0.1, $0.1) }
    }

    /// Flattens `(((A, B), C), D)` into `(A, B, C, D)`.
    public func flatten<A, B, C, D>() -> Publishers.Map<Self, (A, B, C, D)> where Output == (((A, B), C), D) {
        map { ($0.0.0.0, $0.0.0.1, $0.0.1, $0.1) }
    }

    /// Flattens `((((A, B), C), D), E)` into `(A, B, C, D, E)`.
    public func flatten<A, B, C, D, E>() -> Publishers.Map<Self, (A, B, C, D, E)>
    where Output == ((((A, B), C), D), E) {
        map { ($0.0.0.0.0, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) }
    }

    /// Flattens `(((((A, B), C), D), E), F)` into `(A, B, C, D, E, F)`.
    public func flatten<A, B, C, D, E, F>() -> Publishers.Map<Self, (A, B, C, D, E, F)>
    where Output == (((((A, B), C), D), E), F) {
        map { ($0.0.0.0.0.0, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) }
    }

    /// Flattens `((((((A, B), C), D), E), F), G)` into `(A, B, C, D, E, F, G)`.
    public func flatten<A, B, C, D, E, F, G>() -> Publishers.Map<Self, (A, B, C, D, E, F, G)>
    where Output == ((((((A, B), C), D), E), F), G) {
        map { ($0.0.0.0.0.0.0, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) }
    }

    /// Flattens `(((((((A, B), C), D), E), F), G), H)` into `(A, B, C, D, E, F, G, H)`.
    public func flatten<A, B, C, D, E, F, G, H>() -> Publishers.Map<Self, (A, B, C, D, E, F, G, H)>
    where Output == (((((((A, B), C), D), E), F), G), H) {
        map { ($0.0.0.0.0.0.0.0, $0.0.0.0.0.0.0.1, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) }
    }
}
