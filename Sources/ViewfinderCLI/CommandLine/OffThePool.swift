import Dispatch

/// Runs a call that blocks, such as stopping a server or a simulator (which join their threads), on a Dispatch
/// thread, so that it holds none of Swift's cooperative threads.
func offThePool(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            body()
            continuation.resume()
        }
    }
}
