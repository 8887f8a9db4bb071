/// Idle resources kept for reuse, so steady use allocates nothing and concurrent users never wait for each other.
///
/// A caller takes an idle resource, or a new one when all are busy, and returns it afterwards; at most `limit`
/// idle ones are kept.
package final class ReusableResources<Resource: AnyObject & Sendable>: Sendable {
    private let idle: Locked<[Resource]>
    private let limit: Int
    private let make: @Sendable () throws -> Resource

    package init(limit: Int = 2, make: @escaping @Sendable () throws -> Resource) {
        self.limit = limit
        self.make = make
        var idle: [Resource] = []
        idle.reserveCapacity(limit)
        self.idle = Locked(idle)
    }

    /// Calls `body` with a resource no one else is using.
    ///
    /// A resource whose `body` threw is not used again: it may be in a state of its own, as a TurboJPEG instance is
    /// after a corrupt image, when every later image fails with the same error.
    package func withResource<Result>(_ body: (Resource) throws -> Result) throws -> Result {
        let resource = try idle.withLock { $0.popLast() } ?? make()
        let result = try body(resource)
        idle.withLock { idle in
            if idle.count < limit { idle.append(resource) }
        }
        return result
    }
}
