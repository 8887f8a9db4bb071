import ViewfinderCore
import ViewfinderSystem

extension NetworkRig {
    /// How often the coordinator looks for silent hosts while it waits for answers.
    static let silenceCheckInterval = Duration.milliseconds(500)
    /// How often it pings the hosts it waits for, so that a host at work keeps being heard.
    static let silencePingInterval = Duration.seconds(1)

    /// Watches the hosts command `id` waits for until the task is cancelled: pings them every second (an agent
    /// answers a ping at once, even while it fires), and declares lost a host heard from neither since the command
    /// nor for one and a half of its keep-alives.
    ///
    /// The broker would send the last will of a host whose link is cut only after its own check, which Mosquitto
    /// 2.0 makes every 6 s on top of the one and a half keep-alives; this watch loses a silent host within the one
    /// and a half keep-alives of its last word.
    func watchForSilence(_ id: String) -> Task<Void, Never> {
        Task { [weak self] in
            var lastPing = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.silenceCheckInterval)
                guard let self, !Task.isCancelled else { return }
                let (waiting, silent, continuation, client) = markSilentHosts(of: id)
                for (_, message) in silent { configuration.log(message) }
                continuation?.resume()
                guard !waiting.isEmpty, lastPing.duration(to: .now) >= Self.silencePingInterval, let client else {
                    continue
                }
                lastPing = .now
                try? client.publish(outgoing(RigWire.Command(op: "ping", id: nextCommandID(), hosts: waiting)))
            }
        }
    }

    /// Marks lost the hosts of command `id` that have been silent too long; returns those still waited for, those
    /// just lost with why, and the continuation to resume when that completed the command.
    private func markSilentHosts(of id: String) -> (
        waiting: [String], silent: [(String, String)], continuation: CheckedContinuation<Void, Never>?,
        client: MQTTClient?
    ) {
        state.withLock { state in
            guard var pending = state.pending[id] else { return ([], [], nil, nil) }
            let now = ContinuousClock.now
            var silent: [(String, String)] = []
            for host in pending.expected.sorted() where pending.replies[host] == nil && pending.lost[host] == nil {
                let heard = max(state.lastHeard[host] ?? pending.sent, pending.sent)
                let keepAlive = state.hosts[host]?.record.keepaliveSeconds ?? 5
                let limit = Duration.milliseconds(keepAlive * 1500)
                guard heard.duration(to: now) > limit else { continue }
                let message =
                    "host \(host) went silent: nothing from it for \(String(format: "%.1f", heard.duration(to: now).inSeconds)) s, "
                    + "one and a half of its keep-alives"
                pending.lost[host] = message
                silent.append((host, message))
            }
            var continuation: CheckedContinuation<Void, Never>?
            if pending.isComplete {
                continuation = pending.continuation
                pending.continuation = nil
            }
            state.pending[id] = pending
            let waiting = pending.expected.filter { pending.replies[$0] == nil && pending.lost[$0] == nil }.sorted()
            return (waiting, silent, continuation, state.client)
        }
    }
}
