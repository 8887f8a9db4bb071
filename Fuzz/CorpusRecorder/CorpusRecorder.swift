import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSimulator
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Records real PTP/IP sessions with the simulated camera and writes them as seeds for the fuzz targets.
///
/// It starts a Nikon, a Canon and a generic simulator, each behind a recording proxy, runs the client transactions of
/// ``ClientScenario`` through the Nikon proxy, then prints the proxies' ports and records every connection other
/// clients (gphoto2, run by `Scripts/record-fuzz-corpus.sh`) make until its standard input ends. A line
/// `label NAME` on standard input names the connections that follow.
@main enum CorpusRecorder {
    static func main() async {
        guard CommandLine.arguments.count == 2 else {
            FuzzEntry.printToError("usage: fuzz-corpus-recorder CORPUS_DIRECTORY")
            exit(64)
        }
        do {
            try await record(into: CommandLine.arguments[1])
        } catch {
            FuzzEntry.printToError("fuzz-corpus-recorder: \(error)")
            exit(1)
        }
    }

    static func record(into directory: String) async throws {
        let writer = CorpusWriter(directory: directory)
        let seeds = Locked(0)
        let save: @Sendable (RecordedConnection) -> Void = { connection in
            do {
                let count = try writer.write(connection)
                seeds.withLock { $0 += count }
            } catch {
                FuzzEntry.printToError("cannot write the seeds of \(connection.label): \(error)")
            }
        }
        let nikon = try CameraSimulator(
            configuration: .init(
                identity: .nikon, port: 0, sampleImageCount: 0, liveViewSize: Dimensions(width: 160, height: 120)))
        _ = try nikon.addObject(named: "DSC_0100.NEF", data: (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let canon = try CameraSimulator(
            configuration: .init(
                identity: .canon, port: 0, sampleImageCount: 0, liveViewSize: Dimensions(width: 160, height: 120)))
        let generic = try CameraSimulator(configuration: .init(port: 0, sampleImageCount: 1))
        try nikon.start()
        try canon.start()
        try generic.start()
        let nikonProxy = try RecordingProxy(forwardingTo: nikon.port, recorded: save)
        let canonProxy = try RecordingProxy(forwardingTo: canon.port, recorded: save)
        let genericProxy = try RecordingProxy(forwardingTo: generic.port, recorded: save)

        nikonProxy.label("viewfinder-session")
        try await runScenario(port: nikonProxy.port)
        // Unbuffered, so the script that runs gphoto2 reads the ports at once.
        var ports = "nikon \(nikonProxy.port)\ncanon \(canonProxy.port)\ngeneric \(genericProxy.port)\n"
        ports.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        while let line = readLine() {
            if line.hasPrefix("label ") {
                let label = String(line.dropFirst(6))
                for proxy in [nikonProxy, canonProxy, genericProxy] { proxy.label(label) }
            }
        }
        for proxy in [nikonProxy, canonProxy, genericProxy] { proxy.stop() }
        for simulator in [nikon, canon, generic] { simulator.stop() }
        // Connections end with their clients; give the last one's threads a moment to write it.
        try await Task.sleep(for: .milliseconds(500))
        print("wrote \(seeds.withLock { $0 }) new seeds into \(directory)")
    }

    /// Runs the client scenario against the camera behind `port`; refused transactions are part of it.
    static func runScenario(port: UInt16) async throws {
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: .init(port: port, clientName: "viewfinder corpus"))
        for step in ClientScenario.steps where step.operation != .closeSession {
            do {
                if step.streams {
                    _ = try await session.transaction(step.operation, parameters: step.parameters) { _ in }
                } else {
                    let result = try await session.transaction(
                        step.operation, parameters: step.parameters, sending: step.dataOut)
                    try ClientScenario.decode(result.data, as: step.decoding)
                }
            } catch let error as ViewfinderError where error.code == .protocolFailure {
                continue
            }
        }
        await session.close()
    }
}
