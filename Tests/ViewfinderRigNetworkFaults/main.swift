// Faults of a rig across hosts, on a bridge of network namespaces with a mosquitto of its own and eight
// `viewfinder rig agent --simulated 2`, the tool as coordinator: an agent killed mid-take, a host's link cut and
// restored, the broker restarted mid-take, and 5 % of the packets to and from the broker dropped with nftables. Each
// checks that no take fires twice and that no picture is lost or truncated, and prints its figures against its
// limits; the program exits 1 when one is not met.
//
// Usage: rig-network-faults              (as root; `make test-rig-faults` builds the tool and runs it)
//        rig-network-faults kill cut     (only the faults named: kill, cut, restart, loss)

import Foundation
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Prints a line at once.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

guard getuid() == 0 else {
    say("rig-network-faults needs root: the hosts are network namespaces")
    exit(1)
}
do {
    let faults = try await RigFaults.make(hosts: 8)
    let passed = await faults.runAll(only: Set(CommandLine.arguments.dropFirst()))
    exit(passed ? 0 : 1)
} catch {
    say("rig-network-faults failed: \(error)")
    exit(1)
}
