import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

/// Fuzzes the client's side of PTP/IP transactions: the input is everything a camera sends on the command connection
/// after the handshake, and the session's transaction runner, over the PTP/IP transport, runs OpenSession,
/// GetDeviceInfo and the transactions of ``ClientScenario`` against it, decoding every dataset it receives, until the
/// input ends or a transport error ends the session.
///
/// Errors are expected; crashes, hangs and errors other than `ViewfinderError`s are bugs.
@main enum PTPClientFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    /// A streaming consumer gives up after this many bytes, so the drain after a consumer's error is fuzzed too.
    static let consumerLimit = 4096

    static let configuration = PTPIPTransport.Configuration(
        clientName: "fuzz", clientGUID: .random(), responseTimeout: .seconds(2), dataOutChunkSize: 1000,
        eventProbeInterval: nil)
    static let sessionConfiguration = PTPSession.Configuration(
        maximumInMemoryDataLength: 1 << 20, maximumDatasetLength: 1 << 16)

    static func fuzz(_ input: [UInt8]) {
        guard let (near, far) = try? Socket.pair(), let (events, eventsPeer) = try? Socket.pair() else { return }
        defer {
            events.close()
            eventsPeer.close()
        }
        guard let feeder = try? StreamFeeder(far, sending: input) else {
            near.close()
            far.close()
            return
        }
        let transport = PTPIPTransport(
            command: PTPIPConnection(
                socket: near, timeout: configuration.responseTimeout,
                maximumControlPacketLength: configuration.maximumControlPacketLength),
            events: PTPIPConnection(socket: events, timeout: configuration.responseTimeout),
            configuration: configuration)
        let channel = PTPTransactionRunner(transport: transport, configuration: sessionConfiguration)
        let opening = [
            ClientScenario.Step(.openSession, [1]), ClientScenario.Step(.getDeviceInfo, [], .deviceInfo),
        ]
        for (index, step) in (opening + ClientScenario.steps).enumerated() {
            guard run(step, on: channel, transactionID: index == 0 ? 0 : nil) else { break }
        }
        near.close()
        feeder.finish()
    }

    /// Runs one step and decodes its data.
    ///
    /// - Returns: Whether the connection is still usable.
    static func run(_ step: ClientScenario.Step, on channel: PTPTransactionRunner, transactionID: UInt32?) -> Bool {
        let streamed = Locked(0)
        let handling: PTPDataInHandling =
            step.streams
            ? .stream(
                consumer: { chunk in
                    try streamed.withLock { (count) throws(ViewfinderError) in
                        count += chunk.count
                        guard count <= consumerLimit else {
                            throw ViewfinderError(.invalidArgument, "the consumer takes \(consumerLimit) bytes")
                        }
                    }
                }, progress: nil)
            : .collect(progress: nil)
        var consumerError: (any Error)?
        let result: PTPTransactionResult
        do throws(ViewfinderError) {
            result = try channel.run(
                step.operation, parameters: step.parameters, transactionID: transactionID, dataOut: step.dataOut,
                dataIn: handling, cancellation: nil, consumerError: &consumerError)
        } catch {
            precondition(error.code != .timeout, "a finite answer timed out: \(error.message)")
            // The errors after which the connection is still in step, as the session judges them.
            return error.code == .protocolFailure || error.code == .invalidArgument || error.code == .cancelled
        }
        precondition(consumerError == nil || consumerError is ViewfinderError, "a consumer's error changed type")
        if !step.streams {
            _ = try? ClientScenario.decode(result.data, as: step.decoding)
        }
        return true
    }
}
