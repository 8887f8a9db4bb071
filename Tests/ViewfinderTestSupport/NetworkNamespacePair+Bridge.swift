import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How many bridges this process has made, which names each one apart.
private let bridgesMade = Atomic<Int>(0)

extension NetworkNamespacePair {
    /// A "switch" namespace with a Linux bridge and hosts around it, each host a namespace joined to the bridge by a
    /// veth pair, as a rig's hosts on one network: the switch holds `10.88.0.1/16` (for a broker and a coordinator),
    /// host `i` holds ``address(of:)`` on its `eth0`.
    ///
    /// Made with iproute2's `ip` in a few batches; needs root. Run programs in a namespace with
    /// ``NetworkNamespacePair/inside(_:_:)``; ``remove()`` deletes every namespace, and the links with them.
    public struct Bridge: Sendable {
        /// The namespace of the bridge.
        public let hub: String
        /// The hosts' namespaces, in order.
        public let hosts: [String]
        /// The bridge's address, in ``hub``.
        public let hubAddress = "10.88.0.1"

        /// Creates the switch and `count` hosts (at most 1000), or throws what `ip` said.
        public static func make(hosts count: Int) async throws -> Bridge {
            precondition((1...1000).contains(count), "a bridge holds 1 to 1000 hosts")
            let tag = "\(getpid() % 100_000)\(bridgesMade.add(1, ordering: .relaxed).newValue % 100)"
            let bridge = Bridge(hub: "vf-sw-\(tag)", hosts: (0..<count).map { "vf-h\(tag)-\($0)" })
            do {
                try await batch(nil, ["netns add \(bridge.hub)"] + bridge.hosts.map { "netns add \($0)" })
                try await batch(
                    bridge.hub,
                    [
                        "link set lo up", "link add br0 type bridge", "addr add \(bridge.hubAddress)/16 dev br0",
                        "link set br0 up",
                    ])
                try await batch(
                    nil,
                    bridge.hosts.indices.map { index in
                        "link add v\(tag)h\(index) netns \(bridge.hub) type veth peer name eth0 netns \(bridge.hosts[index])"
                    })
                try await batch(bridge.hub, bridge.hosts.indices.map { "link set v\(tag)h\($0) master br0 up" })
                for (index, host) in bridge.hosts.enumerated() {
                    try await batch(
                        host, ["link set lo up", "addr add \(address(of: index))/16 dev eth0", "link set eth0 up"])
                }
            } catch {
                await bridge.remove()
                throw error
            }
            return bridge
        }

        /// The address of host `index`: `10.88.1.1` for the first.
        public static func address(of index: Int) -> String {
            "10.88.\(1 + index / 200).\(1 + index % 200)"
        }

        /// The address of host `index`.
        public func address(of index: Int) -> String { Self.address(of: index) }

        /// Takes host `index`'s link down (`up: false`) or up again, as a cable pulled and plugged back.
        public func setLink(of index: Int, up: Bool) async throws {
            try await Self.batch(hosts[index], ["link set eth0 \(up ? "up" : "down")"])
        }

        /// Deletes every namespace; errors are ignored, as some may never have been made.
        public func remove() async {
            _ = try? await ChildProcess.run(
                ["sh", "-c", ([hub] + hosts).map { "ip netns delete \($0) 2>/dev/null" }.joined(separator: "; ")])
        }

        /// Runs `commands` with one `ip -batch`, in `namespace` or this one.
        private static func batch(_ namespace: String?, _ commands: [String]) async throws {
            let arguments = (namespace.map { ["-n", $0] } ?? []) + ["-batch", "-"]
            let result = try await offThePool { () throws -> ChildProcess.Result in
                let process = try ChildProcess("ip", arguments, mergingErrors: true)
                try process.write(commands.joined(separator: "\n") + "\n")
                process.closeInput()
                guard process.wait(timeout: .seconds(120)) != nil, let result = process.result else {
                    throw TestFailure("ip -batch did not finish")
                }
                return result
            }
            guard result.status == 0 else {
                throw TestFailure(
                    "ip \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.output)")
            }
        }
    }
}
