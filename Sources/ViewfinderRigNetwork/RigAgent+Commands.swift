import Foundation
import ViewfinderCore
import ViewfinderRig
import ViewfinderSystem

extension RigAgent {
    /// Takes a message from the command topic: checks it, applies it once, answers it.
    func receive(_ message: MQTTClient.Message) {
        let received = now()
        let command: RigWire.Command
        do {
            command = try RigWire.decode(RigWire.Command.self, from: message.payload)
        } catch {
            refusals.refused(on: message.topic, because: error.description)
            return
        }
        if let hosts = command.hosts, !hosts.contains(configuration.host) { return }
        guard let responseTopic = message.responseTopic, topics.isReplyTopic(responseTopic) else {
            refusals.refused(
                on: message.topic,
                because:
                    "command \(command.id) asks for its answer on \(message.responseTopic.map { "'\($0.prefix(120))'" } ?? "no topic"), "
                    + "not under \(topics.replyPrefix)ID/reply")
            return
        }
        switch ledger.take(command.id) {
        case .running:
            configuration.log("\(command.op) \(command.id) came again while it runs: applied once")
            return
        case .done(let answer):
            configuration.log("\(command.op) \(command.id) came again: answered again, not applied again")
            publish(answer, answering: message)
            return
        case .new:
            break
        }
        var reply = RigWire.Reply(
            id: command.id, op: command.op, host: configuration.host, status: "ok", receivedNs: received, sentNs: 0)
        guard ledger.runningCount <= configuration.maximumConcurrentCommands else {
            reply.status = "busy"
            reply.message = "this host runs \(configuration.maximumConcurrentCommands) commands at once already"
            send(reply, to: message)
            return
        }
        switch command.op {
        case "ping":
            send(reply, to: message)
        case "fire":
            fire(command, reply: reply, request: message)
        default:
            Task { [self] in
                let outcomes: [RigWire.CameraOutcome]
                switch command.op {
                case "arm": outcomes = await arm(timeout: timeout(of: command))
                case "set": outcomes = await set(command, timeout: timeout(of: command))
                default: outcomes = await collect(take: command.take ?? "")
                }
                reply.cameras = outcomes
                send(reply, to: message)
                if command.op == "arm" { publishState() }
            }
        }
    }

    /// The time each camera may take for `command`: its own, or a minute.
    private func timeout(of command: RigWire.Command) -> Duration {
        command.timeoutMs.map { .milliseconds($0) } ?? .seconds(60)
    }

    /// Fires the take at its instant, or answers "late" when the instant is too close or past.
    private func fire(_ command: RigWire.Command, reply: RigWire.Reply, request: MQTTClient.Message) {
        var reply = reply
        let take = command.take ?? command.id
        let lead = Duration.nanoseconds((command.atNs ?? 0) - now())
        guard lead >= configuration.minimumLead else {
            reply.status = "late"
            reply.message =
                "the fire came \(Self.milliseconds(configuration.minimumLead - lead)) too late for its instant "
                + "(it needs \(Self.milliseconds(configuration.minimumLead)) ahead); not fired"
            configuration.log("take \(take): \(reply.message!)")
            send(reply, to: request)
            return
        }
        guard takes.take(take) == .new else {
            reply.status = "error"
            reply.message = "take \(take) was fired already; a take fires once"
            send(reply, to: request)
            return
        }
        let instant = ContinuousClock.now + lead
        let timeout = timeout(of: command) + lead
        let download = command.download ?? false
        configuration.log("take \(take): firing \(rig.members.count) cameras in \(Self.milliseconds(lead))")
        Task { [self] in
            let folder = "\(configuration.storage)/\(take)"
            if download {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    reply.status = "error"
                    reply.message = "cannot make the folder for take \(take): \(error)"
                    send(reply, to: request)
                    return
                }
                let report = await rig.capturePictures(
                    into: folder, engagingAutoFocus: command.autofocus ?? false, at: instant, timeout: timeout)
                var outcomes: [RigWire.CameraOutcome] = []
                for outcome in report.outcomes {
                    var wire = wireOutcome(outcome) { capture in capture.release }
                    if case .success(let capture) = outcome.result {
                        wire.files = await manifest(of: capture.files.map(\.path), take: take)
                    }
                    outcomes.append(wire)
                }
                reply.cameras = outcomes
            } else {
                let report = await rig.fireShutters(
                    engagingAutoFocus: command.autofocus ?? false, at: instant, timeout: timeout)
                reply.cameras = report.outcomes.map { outcome in wireOutcome(outcome) { $0 } }
            }
            let fired = reply.cameras?.filter(\.ok).count ?? 0
            configuration.log("take \(take): \(fired) of \(rig.members.count) cameras took their picture")
            send(reply, to: request)
        }
    }

    /// Connects the cameras that are not connected, and checks that each takes pictures.
    private func arm(timeout: Duration) async -> [RigWire.CameraOutcome] {
        let report = await rig.forEachCamera(doing: "get ready", timeout: timeout) { member in
            if member.camera.connectionState != .connected {
                try await member.camera.connect()
            }
            guard member.camera.supportedFunctionality.contains(.stillCapture) else {
                throw ViewfinderError(.notAvailable, "camera '\(member.name)' does not take pictures on request")
            }
        }
        return report.outcomes.map { outcome in wireOutcome(outcome) { _ in nil } }
    }

    /// Sets a property on every camera with the configuration's ``Configuration/applySetting``.
    private func set(_ command: RigWire.Command, timeout: Duration) async -> [RigWire.CameraOutcome] {
        let (property, value) = (command.property ?? "", command.value ?? "")
        guard let apply = configuration.applySetting else {
            let error = ViewfinderError(.notAvailable, "this host's agent takes no settings")
            return rig.members.map { member in
                RigWire.CameraOutcome(
                    camera: member.name, ok: false, error: error.message, errorCode: error.code.description,
                    durationMs: 0)
            }
        }
        let report = await rig.forEachCamera(doing: "set \(property)", timeout: timeout) { member in
            try await apply(member, property, value)
        }
        return report.outcomes.map { outcome in
            var wire = wireOutcome(outcome) { _ in nil }
            if case .success(let shown) = outcome.result { wire.value = shown }
            return wire
        }
    }

    /// Lists the files the host keeps of `take`, by camera: a file belongs to the camera whose name and a dash
    /// start its name (the longest such name).
    private func collect(take: String) async -> [RigWire.CameraOutcome] {
        let folder = "\(configuration.storage)/\(take)"
        let names = Directory.names(in: folder).filter(RigWire.isValidName).sorted()
        var byCamera: [String: [String]] = [:]
        for name in names {
            let owner = rig.members.map(\.name).filter { name.hasPrefix($0 + "-") }.max { $0.count < $1.count }
            if let owner { byCamera[owner, default: []].append("\(folder)/\(name)") }
        }
        var outcomes: [RigWire.CameraOutcome] = []
        for member in rig.members {
            guard let paths = byCamera[member.name] else {
                outcomes.append(
                    RigWire.CameraOutcome(
                        camera: member.name, ok: false, error: "this host keeps no picture of take \(take)",
                        errorCode: ViewfinderError.Code.notFound.description, durationMs: 0))
                continue
            }
            let files = await manifest(of: paths, take: take)
            outcomes.append(RigWire.CameraOutcome(camera: member.name, ok: true, durationMs: 0, files: files))
        }
        return outcomes
    }

    /// The manifest entries of files the host keeps: name, size, SHA-256 and URL, read off the cooperative pool.
    private func manifest(of paths: [String], take: String) async -> [RigWire.File] {
        let base = filesURL()
        return
            (try? await IOThread.run(name: "rig-manifest") {
                paths.compactMap { path -> RigWire.File? in
                    guard let name = path.split(separator: "/").last.map(String.init), RigWire.isValidName(name),
                        let (size, digest) = try? Self.digest(ofFileAt: path)
                    else { return nil }
                    return RigWire.File(
                        name: name, size: size, sha256: SHA256.hexadecimal(digest),
                        url: base + RigFileServer.path(take: take, name: name).dropFirst())
                }
            }) ?? []
    }

    /// The size and SHA-256 digest of a file, read in chunks.
    static func digest(ofFileAt path: String) throws -> (UInt64, [UInt8]) {
        let file = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC)
        var hash = SHA256()
        var size: UInt64 = 0
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
            guard count > 0 else { break }
            hash.update(chunk[..<count])
            size += UInt64(count)
        }
        return (size, hash.finalize())
    }

    /// A camera's outcome as a reply carries it, with its shutter times when `release` gives them.
    private func wireOutcome<Success>(
        _ outcome: RigReport<Success>.Outcome, release: (Success) -> ShutterRelease?
    ) -> RigWire.CameraOutcome {
        var wire = RigWire.CameraOutcome(
            camera: outcome.camera, ok: true, durationMs: outcome.duration.inSeconds * 1000)
        switch outcome.result {
        case .success(let value):
            if let times = release(value) {
                wire.requestedNs = realtime(of: times.requested)
                wire.completedNs = realtime(of: times.completed)
            }
        case .failure(let error):
            wire.ok = false
            wire.error = error.message
            wire.errorCode = error.code.description
        }
        return wire
    }

    /// An instant of the monotonic clock on this host's CLOCK_REALTIME (with its simulated error), in nanoseconds.
    func realtime(of instant: ContinuousClock.Instant) -> Int64 {
        let (monotonic, real) = (ContinuousClock.now, now())
        let (seconds, attoseconds) = monotonic.duration(to: instant).components
        return real + seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration.inSeconds * 1000)
    }
}
