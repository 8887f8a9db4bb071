import Dispatch
import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSimulator
import ViewfinderSystem

/// Fuzzes the simulated camera's request handling.
///
/// The input is everything a client sends on the command connection, from its first packet on. When the simulator
/// accepts the connection, the fuzzer opens the event connection as a client would, so the input reaches a running
/// session: requests, data-out phases, probes and whatever else.
///
/// Each input goes to a fresh Nikon simulator and then to a fresh Canon EOS simulator, each with one small file on
/// its card, so inputs replay the same way and reach both vendors' request handling.
@main enum SimulatorFuzzer {
    static func main() {
        FuzzEntry.run { input in
            for identity in [CameraSimulator.Identity.nikon, .canon] { fuzz(input, identity: identity) }
        }
    }

    static func configuration(_ identity: CameraSimulator.Identity) -> CameraSimulator.Configuration {
        CameraSimulator.Configuration(
            identity: identity, port: 0, sampleImageCount: 0, liveViewSize: Dimensions(width: 64, height: 48),
            liveViewStartupDelay: .zero, batteryDrainInterval: .seconds(3600), replyTimeout: .seconds(2),
            idleTimeout: .seconds(2))
    }

    /// The file on the card: object handle 3, after the DCIM folder and the camera folder.
    static let file = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    static func fuzz(_ input: [UInt8], identity: CameraSimulator.Identity) {
        guard let simulator = try? CameraSimulator(configuration: configuration(identity)),
            (try? simulator.addObject(named: "DSC_0100.NEF", data: file)) != nil,
            let (command, commandPeer) = try? Socket.pair(),
            let (events, eventsPeer) = try? Socket.pair()
        else { return }
        let watcher = AcceptanceWatcher()
        do {
            let feeder = try StreamFeeder(commandPeer, sending: input) { watcher.see($0) }
            let session = try PlatformThread(name: "fuzz-session") {
                simulator.serve(command)
                watcher.sessionEnded()
            }
            var eventFeeder: StreamFeeder?
            if let number = watcher.waitForAcceptance() {
                let request = try PTPIPPacket.initEventRequest(connectionNumber: number).encoded()
                eventFeeder = try StreamFeeder(eventsPeer, sending: request)
                simulator.serve(events)
            } else {
                events.close()
                eventsPeer.close()
            }
            session.join()
            feeder.finish()
            simulator.stop()
            eventFeeder?.finish()
        } catch {
            preconditionFailure("the harness failed: \(error)")
        }
    }
}

/// Watches the simulator's first answer on the command connection for the InitCommandAck that accepts the client.
final class AcceptanceWatcher: Sendable {
    private struct State {
        var head: [UInt8] = []
        var decided = false
        var connectionNumber: UInt32?
    }

    private let state = Locked(State())
    private let decided = DispatchSemaphore(value: 0)

    /// Looks at bytes the simulator sent.
    func see(_ bytes: UnsafeRawBufferPointer) {
        let decidedNow = state.withLock { state -> Bool in
            guard !state.decided else { return false }
            state.head += bytes.prefix(12 - state.head.count)
            guard state.head.count == 12 else { return false }
            let head = state.head
            let word = { (offset: Int) in
                head[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            }
            if word(4) == PTPIPPacketType.initCommandAck.rawValue {
                state.connectionNumber = word(8)
            }
            state.decided = true
            return true
        }
        if decidedNow { decided.signal() }
    }

    /// Notes that the session is over, accepted or not.
    func sessionEnded() {
        let decidedNow = state.withLock { state -> Bool in
            defer { state.decided = true }
            return !state.decided
        }
        if decidedNow { decided.signal() }
    }

    /// Waits until the simulator has accepted or refused the connection.
    ///
    /// - Returns: The connection number the event connection must quote, or `nil` when the client was not accepted.
    func waitForAcceptance() -> UInt32? {
        decided.wait()
        return state.withLock { $0.connectionNumber }
    }
}
