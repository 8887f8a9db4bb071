import Foundation
import ViewfinderCore
import ViewfinderRig
import ViewfinderSystem

extension NetworkRig {
    /// Measures how far each online host's clock is from this one's, over the broker (see ``RigClockEstimate``).
    ///
    /// - Parameters:
    ///   - samples: How many pings go to every host; the one with the shortest round trip counts.
    ///   - timeout: How long each ping waits for its answers.
    /// - Returns: The estimate of each host that answered; ``hosts`` shows them too.
    @discardableResult
    public func measureClocks(samples: Int = 5, timeout: Duration = .seconds(2)) async -> [String: RigClockEstimate] {
        let targets = hosts.filter(\.isOnline).map(\.name)
        guard !targets.isEmpty else { return [:] }
        var best: [String: RigClockEstimate] = [:]
        for _ in 0..<max(1, samples) {
            let sent = realtimeNanoseconds()
            let command = RigWire.Command(op: "ping", id: nextCommandID(), sentNs: sent)
            guard let (replies, _) = try? await request(command, hosts: targets, timeout: timeout) else { break }
            for (host, answer) in replies {
                let estimate = RigClockEstimate(
                    sent: sent, received: answer.reply.receivedNs, answered: answer.reply.sentNs,
                    arrived: answer.arrived)
                best[host] = best[host]?.combined(with: estimate) ?? estimate
            }
        }
        state.withLock { state in
            for (host, estimate) in best { state.hosts[host]?.estimate = estimate }
        }
        return best
    }

    /// Gets every camera of every online host ready: connected (again, if it had gone), and able to take pictures.
    ///
    /// - Parameter timeout: How long each camera may take.
    public func arm(timeout: Duration = .seconds(15)) async throws -> RigReport<Void> {
        let targets = hosts.filter(\.isOnline)
        try requireHosts(targets)
        let began = ContinuousClock.now
        let command = RigWire.Command(op: "arm", id: nextCommandID(), timeoutMs: Self.milliseconds(timeout))
        let answers = try await request(command, hosts: targets.map(\.name), timeout: timeout + .seconds(5))
        return RigReport(
            outcomes: outcomes(of: targets, answers: answers, began: began) { _, _ in .success(()) })
    }

    /// Sets a property to the same value on every camera of every online host.
    ///
    /// The agents apply it with their ``RigAgent/Configuration/applySetting``; `viewfinder rig agent` takes the names
    /// and values of `viewfinder camera set`, such as `iso` and `800`.
    ///
    /// - Returns: Each camera's outcome, with the value it shows afterwards.
    public func setValue(_ value: String, forProperty property: String, timeout: Duration = .seconds(10)) async throws
        -> RigReport<String>
    {
        let targets = hosts.filter(\.isOnline)
        try requireHosts(targets)
        let began = ContinuousClock.now
        let command = RigWire.Command(
            op: "set", id: nextCommandID(), property: property, value: value, timeoutMs: Self.milliseconds(timeout))
        let answers = try await request(command, hosts: targets.map(\.name), timeout: timeout + .seconds(5))
        return RigReport(
            outcomes: outcomes(of: targets, answers: answers, began: began) { _, camera in
                .success(camera.value ?? value)
            })
    }

    /// Fires every camera of every online host at one instant, ``Configuration/lead`` from now on the hosts' clocks.
    ///
    /// Before the fire, each host's clock is measured (when it has not been) and a host whose clock is off by more
    /// than ``Configuration/maximumClockOffset`` is left out, its cameras failing with the offset. A host that
    /// answers "late" (the fire reached it too close to the instant) did not fire.
    ///
    /// - Parameters:
    ///   - lead: How far ahead the instant is; ``Configuration/lead`` when `nil`.
    ///   - engageAutoFocus: Whether each camera focuses before its picture.
    ///   - timeout: How long each camera may take after the instant.
    /// - Throws: `ViewfinderError/Code/notConnected` when no host is online; `ViewfinderError/Code/timeout` when the
    ///   lead is too short for the fire to reach every host in time, measured by the hosts' round trips.
    public func fireShutters(
        lead: Duration? = nil, engagingAutoFocus engageAutoFocus: Bool = false, timeout: Duration = .seconds(30)
    ) async throws -> RigReport<ShutterRelease> {
        try await fireShuttersTimingDelivery(lead: lead, engagingAutoFocus: engageAutoFocus, timeout: timeout).report
    }

    /// Fires as ``fireShutters(lead:engagingAutoFocus:timeout:)`` does, and says how long the fire took to reach each
    /// host: from the moment it was made to the moment the host received it, by the two clocks (the benchmark of the
    /// fan-out reads it on hosts that share one clock).
    package func fireShuttersTimingDelivery(
        lead: Duration? = nil, engagingAutoFocus engageAutoFocus: Bool = false, timeout: Duration = .seconds(30)
    ) async throws -> (report: RigReport<ShutterRelease>, delivery: [String: Duration]) {
        let fired = try await take(
            name: Self.makeTakeName(), lead: lead, download: false, autofocus: engageAutoFocus, timeout: timeout
        ) { _, _, release in .success(release) }
        return (RigReport(outcomes: fired.outcomes), fired.delivery)
    }

    /// Fires every camera of every online host at one instant, as ``fireShutters(lead:engagingAutoFocus:timeout:)``
    /// does, has each host download its cameras' pictures, and fetches them into `directory`.
    ///
    /// Each host's pictures go into a folder of the host's name, each named as its host named it (the camera's name,
    /// a dash and the camera's file name): `DIRECTORY/h03/cam1-DSC_0042.JPG`. Every file is checked against the
    /// size and SHA-256 digest its host listed, and appears under its name only once whole; at most
    /// ``Configuration/downloadConcurrency`` are fetched at once.
    ///
    /// - Parameters:
    ///   - directory: The folder for the pictures; made when missing.
    ///   - take: The take's name, the folder on every host; a new one from the date and time when `nil`.
    ///   - lead: How far ahead the instant is; ``Configuration/lead`` when `nil`.
    ///   - engageAutoFocus: Whether each camera focuses before its picture.
    ///   - timeout: How long each camera may take after the instant, its download to its host included.
    /// - Returns: Each camera's picture with its files here, or what kept it; the files of a camera whose fetch
    ///   failed stay on its host, for ``collect(take:into:timeout:)``.
    public func capturePictures(
        into directory: String, take: String? = nil, lead: Duration? = nil,
        engagingAutoFocus engageAutoFocus: Bool = false, timeout: Duration = .seconds(60)
    ) async throws -> RigReport<RigCapture> {
        let name = take ?? Self.makeTakeName()
        guard RigWire.isValidName(name) else {
            throw ViewfinderError(
                .invalidArgument, "'\(name)' cannot name a take: use up to 64 letters, digits, '-', '_', '.'")
        }
        let fired = try await self.take(
            name: name, lead: lead, download: true, autofocus: engageAutoFocus, timeout: timeout
        ) { _, _, release in .success(RigCapture(release: release, files: [])) }
        let fetched = await fetch(fired.files, into: directory, timeout: timeout)
        return RigReport(
            outcomes: fired.outcomes.map { outcome in
                guard case .success(let capture) = outcome.result, let result = fetched[outcome.camera] else {
                    return outcome
                }
                return RigReport<RigCapture>.Outcome(
                    camera: outcome.camera,
                    result: result.map { RigCapture(release: capture.release, files: $0) },
                    duration: outcome.duration)
            })
    }

    /// Fetches again the pictures the hosts keep of `take`, such as those whose fetch failed, into `directory`.
    ///
    /// - Returns: Each camera's files here, or what kept them.
    public func collect(take: String, into directory: String, timeout: Duration = .seconds(60)) async throws
        -> RigReport<[RigCapture.File]>
    {
        guard RigWire.isValidName(take) else {
            throw ViewfinderError(.invalidArgument, "'\(take)' cannot name a take")
        }
        let targets = hosts.filter(\.isOnline)
        try requireHosts(targets)
        let began = ContinuousClock.now
        let command = RigWire.Command(op: "collect", id: nextCommandID(), take: take)
        let answers = try await request(command, hosts: targets.map(\.name), timeout: timeout)
        var files: [String: (host: RigHost, files: [RigWire.File])] = [:]
        let listed = outcomes(of: targets, answers: answers, began: began) {
            host, camera -> Result<Void, ViewfinderError> in
            files[host.reportName(of: camera.camera)] = (host, camera.files ?? [])
            return .success(())
        }
        let fetched = await fetch(files, into: directory, timeout: timeout)
        return RigReport(
            outcomes: listed.map { outcome in
                let result = outcome.result.flatMap { _ in
                    fetched[outcome.camera] ?? .failure(ViewfinderError(.notFound, "no files"))
                }
                return .init(camera: outcome.camera, result: result, duration: outcome.duration)
            })
    }

    /// What a take came to: each camera's outcome, the files each camera's host listed, and how long the fire took
    /// to reach each host.
    private struct Take<Value: Sendable> {
        var outcomes: [RigReport<Value>.Outcome]
        var files: [String: (host: RigHost, files: [RigWire.File])] = [:]
        var delivery: [String: Duration] = [:]
    }

    /// Fires take `name` on every online host whose clock is good, and reports each camera with `value`.
    private func take<Value: Sendable>(
        name: String, lead: Duration?, download: Bool, autofocus: Bool, timeout: Duration,
        value: (RigHost, RigWire.CameraOutcome, ShutterRelease) -> Result<Value, ViewfinderError>
    ) async throws -> Take<Value> {
        let lead = lead ?? configuration.lead
        var targets = hosts.filter(\.isOnline)
        try requireHosts(targets)
        if targets.contains(where: { $0.clockEstimate == nil }) {
            await measureClocks(samples: 3, timeout: .seconds(2))
            let measured = Dictionary(uniqueKeysWithValues: hosts.map { ($0.name, $0) })
            targets = targets.map { measured[$0.name] ?? $0 }
        }
        let began = ContinuousClock.now
        var refused: [RigReport<Value>.Outcome] = []
        let ready = targets.filter { host in
            guard let problem = clockProblem(of: host) else { return true }
            refused += host.cameras.map { camera in
                .init(camera: host.reportName(of: camera.name), result: .failure(problem), duration: .zero)
            }
            return false
        }
        guard !ready.isEmpty else { return Take(outcomes: refused) }
        let slowest = ready.max { ($0.clockEstimate?.roundTrip ?? .zero) < ($1.clockEstimate?.roundTrip ?? .zero) }!
        let needed = (slowest.clockEstimate?.roundTrip ?? .zero) / 2 + configuration.minimumLead
        guard lead >= needed else {
            throw ViewfinderError(
                .timeout,
                "a lead of \(Self.text(lead)) cannot reach every host in time: host \(slowest.name) answers in "
                    + "\(Self.text(slowest.clockEstimate?.roundTrip ?? .zero)) there and back, and a fire must reach a "
                    + "host \(Self.text(configuration.minimumLead)) ahead; give a lead of at least \(Self.text(needed))"
            )
        }
        let made = realtimeNanoseconds()
        let instant =
            made + Int64(lead.components.seconds) * 1_000_000_000 + lead.components.attoseconds / 1_000_000_000
        let command = RigWire.Command(
            op: "fire", id: nextCommandID(), atNs: instant, take: name, download: download, autofocus: autofocus,
            timeoutMs: Self.milliseconds(timeout))
        let answers = try await request(
            command, hosts: ready.map(\.name), timeout: lead + timeout + .seconds(5), expiry: lead)
        var files: [String: (host: RigHost, files: [RigWire.File])] = [:]
        let (monotonic, real) = (ContinuousClock.now, realtimeNanoseconds())
        func instantOf(_ nanoseconds: Int64?) -> ContinuousClock.Instant {
            monotonic + .nanoseconds((nanoseconds ?? real) - real)
        }
        let fired = outcomes(of: ready, answers: answers, began: began) {
            host, camera -> Result<Value, ViewfinderError> in
            files[host.reportName(of: camera.camera)] = (host, camera.files ?? [])
            return value(
                host, camera,
                ShutterRelease(requested: instantOf(camera.requestedNs), completed: instantOf(camera.completedNs)))
        }
        return Take(
            outcomes: refused + fired, files: files,
            delivery: answers.replies.mapValues { .nanoseconds($0.reply.receivedNs - made) })
    }

    /// Why a host's cameras are not fired for its clock, if they are not.
    private func clockProblem(of host: RigHost) -> ViewfinderError? {
        guard let estimate = host.clockEstimate else {
            return ViewfinderError(.timeout, "host \(host.name) did not answer the clock check")
        }
        let offset = estimate.offset < .zero ? .zero - estimate.offset : estimate.offset
        guard offset - estimate.uncertainty > configuration.maximumClockOffset else { return nil }
        return ViewfinderError(
            .invalidArgument,
            "host \(host.name)'s clock is \(Self.text(estimate.offset)) off this one's (±\(Self.text(estimate.uncertainty)), "
                + "kept by \(host.clock?.source.rawValue ?? "nothing known")), more than the \(Self.text(configuration.maximumClockOffset)) "
                + "allowed: its cameras were not fired; keep its clock with chrony or PTP")
    }

    /// The report's outcomes for the cameras of `hosts` from the answers to a command.
    func outcomes<Value>(
        of hosts: [RigHost],
        answers: (replies: [String: (reply: RigWire.Reply, arrived: Int64)], lost: [String: String]),
        began: ContinuousClock.Instant,
        value: (RigHost, RigWire.CameraOutcome) -> Result<Value, ViewfinderError>
    ) -> [RigReport<Value>.Outcome] {
        let now = ContinuousClock.now
        let real = realtimeNanoseconds()
        return hosts.sorted { $0.name < $1.name }.flatMap { host -> [RigReport<Value>.Outcome] in
            guard let (reply, arrived) = answers.replies[host.name] else {
                let error =
                    answers.lost[host.name].map { ViewfinderError(.disconnected, $0) }
                    ?? ViewfinderError(.timeout, "host \(host.name) did not answer in time")
                return host.cameras.map { camera in
                    .init(
                        camera: host.reportName(of: camera.name), result: .failure(error),
                        duration: began.duration(to: now))
                }
            }
            let duration = began.duration(to: now) - .nanoseconds(real - arrived)
            guard reply.status == "ok" else {
                let code: ViewfinderError.Code =
                    reply.status == "late" ? .timeout : reply.status == "busy" ? .deviceBusy : .io
                let error = ViewfinderError(code, "host \(host.name): \(reply.message ?? reply.status)")
                let names = reply.cameras?.map(\.camera) ?? host.cameras.map(\.name)
                return names.map { .init(camera: host.reportName(of: $0), result: .failure(error), duration: duration) }
            }
            return (reply.cameras ?? []).map { camera in
                let name = host.reportName(of: camera.camera)
                guard camera.ok else {
                    let error = ViewfinderError(
                        Self.code(named: camera.errorCode), camera.error ?? "failed on host \(host.name)")
                    return .init(camera: name, result: .failure(error), duration: .milliseconds(camera.durationMs))
                }
                return .init(camera: name, result: value(host, camera), duration: .milliseconds(camera.durationMs))
            }
        }
    }

    /// Fetches every listed file into `directory/HOST/`, a few at once; returns each camera's files or its first
    /// failure.
    private func fetch(
        _ listed: [String: (host: RigHost, files: [RigWire.File])], into directory: String, timeout: Duration
    ) async -> [String: Result<[RigCapture.File], ViewfinderError>] {
        struct Job: Sendable {
            var camera: String
            var file: RigWire.File
            var token: String?
            var path: String
        }
        let tokens = state.withLock { state in state.hosts.mapValues { $0.record.files?.token } }
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var jobs: [Job] = []
        var results: [String: Result<[RigCapture.File], ViewfinderError>] = [:]
        for (camera, entry) in listed.sorted(by: { $0.key < $1.key }) {
            do {
                try FileManager.default.createDirectory(
                    atPath: "\(folder)/\(entry.host.name)", withIntermediateDirectories: true)
            } catch {
                results[camera] = .failure(ViewfinderError(.io, "cannot make \(folder)/\(entry.host.name): \(error)"))
                continue
            }
            results[camera] = .success([])
            jobs += entry.files.map { file in
                Job(
                    camera: camera, file: file, token: tokens[entry.host.name] ?? nil,
                    path: "\(folder)/\(entry.host.name)/\(file.name)")
            }
        }
        let concurrency = max(1, configuration.downloadConcurrency)
        await withTaskGroup(of: (Job, Result<Void, ViewfinderError>).self) { group in
            var next = 0
            func add() {
                guard next < jobs.count else { return }
                let job = jobs[next]
                next += 1
                group.addTask {
                    guard let token = job.token else {
                        return (job, .failure(ViewfinderError(.notAvailable, "its host gives no token for its files")))
                    }
                    do {
                        try await IOThread.run(name: "rig-fetch") {
                            try RigFileFetcher.fetch(job.file, token: token, to: job.path, timeout: timeout)
                        }
                        return (job, .success(()))
                    } catch {
                        return (job, .failure((error as? ViewfinderError) ?? ViewfinderError(.io, "\(error)")))
                    }
                }
            }
            for _ in 0..<concurrency { add() }
            for await (job, outcome) in group {
                add()
                switch (results[job.camera], outcome) {
                case (.success(var files)?, .success):
                    let item = CameraFileItem(
                        id: UInt32(files.count), storageID: 0, parentID: nil, name: job.file.name,
                        kind: Self.kind(of: job.file.name), byteCount: job.file.size)
                    files.append(RigCapture.File(item: item, path: job.path))
                    results[job.camera] = .success(files)
                case (.success?, .failure(let error)):
                    results[job.camera] = .failure(error)
                default:
                    break
                }
            }
        }
        return results
    }

    /// Fails when no host is online.
    private func requireHosts(_ targets: [RigHost]) throws {
        guard targets.isEmpty else { return }
        throw ViewfinderError(
            .notConnected,
            "no host of rig \(configuration.rig) is online at \(configuration.broker.url): start "
                + "'viewfinder rig agent --broker \(configuration.broker.url) --rig \(configuration.rig)' on each host")
    }

    /// A take's name from the date and time, such as `take-20250131-154502-3f9c`.
    static func makeTakeName() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "take-\(formatter.string(from: Date()))-\(String(UInt16.random(in: 0...UInt16.max), radix: 16))"
    }

    /// A file's kind by its extension.
    static func kind(of name: String) -> CameraFileItem.Kind {
        switch name.split(separator: ".").last?.lowercased() {
        case "jpg", "jpeg": .jpegImage
        case "nef", "cr2", "cr3", "arw", "raf", "dng", "orf", "rw2": .rawImage
        case "mov", "mp4": .video
        default: .other
        }
    }

    /// The error code a reply names; `io` for a name this code does not know.
    static func code(named name: String?) -> ViewfinderError.Code {
        let codes: [ViewfinderError.Code] = [
            .notConnected, .connectionFailed, .pairingRequired, .disconnected, .deviceBusy, .deviceRemoved,
            .permissionDenied, .invalidArgument, .invalidPropertyValue, .notAvailable, .notFound, .timeout, .cancelled,
            .unsupportedPixelFormat, .noValidFormat, .alreadyRunning, .malformedData, .protocolFailure, .io,
        ]
        return codes.first { $0.description == name } ?? .io
    }

    static func milliseconds(_ duration: Duration) -> Int {
        max(1, Int(duration.inSeconds * 1000))
    }

    static func text(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration.inSeconds * 1000)
    }
}
