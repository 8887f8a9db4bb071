import Foundation
import Testing
import ViewfinderCore
import ViewfinderRig
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderRigNetwork

/// Agents and a coordinator in this process, through a mosquitto of the test's own on loopback.
@Suite(.timeLimit(.minutes(3))) struct NetworkRigTests {
    @Test func hostsAppearWithTheirCamerasAndATakeFetchesEveryPictureWhole() async throws {
        try await AgentHarness.run(hosts: 2, cameras: 2) { harness in
            let rig = try await harness.coordinator()
            let hosts = rig.hosts
            #expect(hosts.map(\.name) == ["h0", "h1"])
            for host in hosts {
                #expect(host.isOnline)
                #expect(host.cameras.map(\.name) == ["cam0", "cam1"])
                #expect(host.cameras.allSatisfy { $0.isConnected && $0.model != nil })
                #expect(host.clock != nil)
                #expect(host.filesURL?.hasPrefix("http://127.0.0.1:") == true, "\(String(describing: host.filesURL))")
            }
            let directory = harness.folder + "/gathered"
            let take = try await rig.capturePictures(into: directory, take: "take-1")
            #expect(take.allSucceeded, "\(take.failures)\n\(harness.log)")
            #expect(take.outcomes.map(\.camera) == ["h0/cam0", "h0/cam1", "h1/cam0", "h1/cam1"])
            for index in 0..<2 {
                let pictures = harness.newestPictures(of: index)
                for (camera, picture) in pictures.enumerated() {
                    let capture = try #require(take["h\(index)/cam\(camera)"]).result.get()
                    let file = try #require(capture.files.first)
                    #expect(
                        file.path == "\(directory)/h\(index)/cam\(camera)-\(file.item.name.split(separator: "-").last!)"
                    )
                    let bytes = try #require(FileManager.default.contents(atPath: file.path))
                    #expect(Array(bytes) == picture, "\(file.path)")
                    #expect(file.item.byteCount == UInt64(bytes.count))
                    #expect(capture.release.requested <= capture.release.completed)
                }
            }
            // Nothing partial is left beside the pictures.
            let names = try FileManager.default.subpathsOfDirectory(atPath: directory)
            #expect(!names.contains { $0.hasSuffix(".part") }, "\(names)")
            // The hosts keep the take: collecting it again brings the same files.
            let again = try await rig.collect(take: "take-1", into: harness.folder + "/again")
            #expect(again.allSucceeded, "\(again.failures)")
            for outcome in again.successes {
                let path = try #require(outcome.value.first?.path)
                let original = try #require(take[outcome.camera]).result.get().files[0].path
                #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: original))
            }
        }
    }

    @Test func aCommandThatArrivesTwiceIsAppliedOnceAndATakeFiresOnce() async throws {
        try await AgentHarness.run(hosts: 1, cameras: 2) { harness in
            let topics = RigTopics(rig: "default")
            let replies = topics.replies(to: "tester")
            let client = try await RecordingClient(broker: try harness.brokerConfiguration(), subscriptions: [replies])
            defer { Task { await client.stop() } }
            // Wait for the agent's subscription: a ping is answered.
            try await waitUntil("the agent to answer a ping") {
                let ping = RigWire.Command(op: "ping", id: "p\(Int.random(in: 0...1_000_000))")
                try client.publish(
                    RigWire.encode(ping), on: topics.commands, responseTopic: replies, correlation: ping.id)
                try await Task.sleep(for: .milliseconds(50))
                return !client.messages(on: replies).isEmpty
            }
            let before = harness.pictureCounts(of: 0)
            let fire = RigWire.Command(
                op: "fire", id: "fire-1", atNs: realtimeNanoseconds() + 300_000_000, take: "t1")
            for _ in 0..<2 {
                try client.publish(
                    RigWire.encode(fire), on: topics.commands, responseTopic: replies, correlation: fire.id)
            }
            try await waitUntil("the fire's answer") { answers(client, replies, id: "fire-1").count >= 1 }
            // Sent again once done: answered again, the same answer, and not applied again.
            try client.publish(RigWire.encode(fire), on: topics.commands, responseTopic: replies, correlation: fire.id)
            try await waitUntil("the fire's answer again") { answers(client, replies, id: "fire-1").count >= 2 }
            let fired = answers(client, replies, id: "fire-1")
            #expect(fired[0] == fired[1])
            #expect(fired[0].status == "ok", "\(fired[0])")
            #expect(fired[0].cameras?.allSatisfy(\.ok) == true)
            // Not before the instant (within 0.1 ms: the host turns its monotonic instants into wall-clock times).
            #expect(
                fired[0].cameras?.allSatisfy { $0.requestedNs ?? 0 >= fire.atNs! - 100_000 } == true, "\(fired[0])")
            // The same take under another identifier is refused: a take fires once.
            var second = fire
            second.id = "fire-2"
            second.atNs = realtimeNanoseconds() + 300_000_000
            try client.publish(
                RigWire.encode(second), on: topics.commands, responseTopic: replies, correlation: second.id)
            try await waitUntil("the second fire's answer") { !answers(client, replies, id: "fire-2").isEmpty }
            let refused = answers(client, replies, id: "fire-2")[0]
            #expect(refused.status == "error")
            #expect(refused.message?.contains("fired already") == true, "\(refused)")
            #expect(harness.pictureCounts(of: 0) == before.map { $0 + 1 })
            #expect(harness.log.contains("fire fire-1 came again"), "\(harness.log)")
        }
    }

    @Test func aFireThatComesTooLateIsAnsweredLateAndNotFired() async throws {
        try await AgentHarness.run(hosts: 1, cameras: 1) { harness in
            let topics = RigTopics(rig: "default")
            let replies = topics.replies(to: "tester")
            let client = try await RecordingClient(broker: try harness.brokerConfiguration(), subscriptions: [replies])
            defer { Task { await client.stop() } }
            let rig = try await harness.coordinator()
            _ = rig
            let before = harness.pictureCounts(of: 0)
            let late = RigWire.Command(op: "fire", id: "late-1", atNs: realtimeNanoseconds() - 1_000_000, take: "t9")
            try client.publish(RigWire.encode(late), on: topics.commands, responseTopic: replies, correlation: late.id)
            try await waitUntil("the late fire's answer") { !answers(client, replies, id: "late-1").isEmpty }
            let reply = answers(client, replies, id: "late-1")[0]
            #expect(reply.status == "late")
            #expect(reply.message?.contains("too late for its instant") == true, "\(reply)")
            #expect(harness.pictureCounts(of: 0) == before)
        }
    }

    @Test func aLeadTooShortToReachTheHostsIsRefusedBeforeAnythingIsSent() async throws {
        try await AgentHarness.run(hosts: 1, cameras: 1) { harness in
            let rig = try await harness.coordinator()
            let before = harness.pictureCounts(of: 0)
            await #expect {
                _ = try await rig.fireShutters(lead: .milliseconds(5))
            } throws: { error in
                let error = error as? ViewfinderError
                return error?.code == .timeout && error?.message.contains("cannot reach every host in time") == true
            }
            #expect(harness.pictureCounts(of: 0) == before)
        }
    }

    @Test func aHostWhoseClockIsOffIsMeasuredAndLeftOut() async throws {
        let skewed: AgentHarness.Configure = { configuration, index in
            if index == 1 { configuration.simulatedClockError = .milliseconds(40) }
        }
        try await AgentHarness.run(hosts: 2, cameras: 1, configure: skewed) { harness in
            let rig = try await harness.coordinator()
            let before = harness.pictureCounts(of: 1)
            let estimates = await rig.measureClocks(samples: 5)
            let off = try #require(estimates["h1"])
            let good = try #require(estimates["h0"])
            // The true offset lies within half the round trip of the estimate, however the two ways differ.
            let tolerance = Duration.microseconds(10)
            #expect(
                abs((off.offset - .milliseconds(40)).inSeconds) <= (off.uncertainty + tolerance).inSeconds, "\(off)")
            #expect(abs(good.offset.inSeconds) <= (good.uncertainty + tolerance).inSeconds, "\(good)")
            #expect(rig.hosts.first { $0.name == "h1" }?.clockEstimate == off)
            let report = try await rig.fireShutters()
            #expect(try report["h0/cam0"]?.result.get() != nil)
            let failure = try #require(report.failures.first { $0.camera == "h1/cam0" })
            #expect(failure.error.code == .invalidArgument)
            #expect(failure.error.message.contains("clock is"), "\(failure.error)")
            #expect(harness.pictureCounts(of: 1) == before)
        }
    }

    @Test func settingsReachEveryCameraThroughTheAgentsSetter() async throws {
        let applied = Locked<[String]>([])
        let recording: AgentHarness.Configure = { configuration, index in
            configuration.applySetting = { member, property, value in
                applied.withLock { $0.append("h\(index)/\(member.name) \(property)=\(value)") }
                return "\(property) is \(value)"
            }
        }
        try await AgentHarness.run(hosts: 2, cameras: 2, configure: recording) { harness in
            let rig = try await harness.coordinator()
            let report = try await rig.setValue("800", forProperty: "iso")
            #expect(report.allSucceeded, "\(report.failures)")
            #expect(report.successes.map(\.value) == Array(repeating: "iso is 800", count: 4))
            #expect(
                applied.withLock { $0 }.sorted() == [
                    "h0/cam0 iso=800", "h0/cam1 iso=800", "h1/cam0 iso=800", "h1/cam1 iso=800",
                ])
        }
        // An agent without a setter says so for each camera.
        try await AgentHarness.run(hosts: 1, cameras: 1) { harness in
            let rig = try await harness.coordinator()
            let report = try await rig.setValue("800", forProperty: "iso")
            #expect(report.failures.map(\.error.code) == [.notAvailable])
        }
    }

    @Test func malformedMessagesAreRefusedWithALogLineAndEverythingGoesOn() async throws {
        try await AgentHarness.run(hosts: 1, cameras: 1) { harness in
            let rig = try await harness.coordinator()
            let topics = RigTopics(rig: "default")
            let client = try await RecordingClient(broker: try harness.brokerConfiguration(), subscriptions: [])
            defer { Task { await client.stop() } }
            let replies = topics.replies(to: "tester")
            let valid = RigWire.encode(RigWire.Command(op: "ping", id: "ok-1"))
            let hostile: [([UInt8], String?)] = [
                (Array("not json".utf8), replies),
                (Array(#"{"v":9,"op":"ping","id":"a"}"#.utf8), replies),
                (Array(#"{"v":1,"op":"rm -rf","id":"a"}"#.utf8), replies),
                ([UInt8](repeating: 0x7b, count: RigWire.maximumMessageSize + 10), replies),
                (valid, "vf/default/host/h0/state"),
                (valid, nil),
            ]
            for (payload, responseTopic) in hostile {
                try client.publish(payload, on: topics.commands, responseTopic: responseTopic, correlation: "x")
            }
            try await waitUntil("the agent to refuse every message") {
                harness.agents[0].refusedMessageCount == hostile.count
            }
            // On the coordinator's topics: a record on another host's topic, a record that is not one, a reply to
            // nobody.
            try client.publish(
                RigWire.encode(RigWire.HostState(host: "h0", online: false)), on: topics.state(of: "evil"))
            try client.publish(Array("{}".utf8), on: topics.state(of: "h9"))
            try client.publish(
                RigWire.encode(
                    RigWire.Reply(id: "forged-1", op: "fire", host: "h0", status: "ok", receivedNs: 0, sentNs: 0)),
                on: topics.replies(to: rig.identifier), correlation: "forged-1")
            try await waitUntil("the coordinator to refuse every message") { rig.refusedMessageCount == 3 }
            #expect(rig.hosts.map(\.name) == ["h0"])
            #expect(rig.hosts[0].isOnline)
            let log = harness.log
            #expect(log.contains("h0: refused a message on vf/default/cmd: it is not a JSON object"), "\(log)")
            #expect(log.contains("format version 9"), "\(log)")
            #expect(log.contains("not under vf/default/coord/ID/reply"), "\(log)")
            #expect(log.contains("coordinator: refused a message on vf/default/host/evil/state"), "\(log)")
            // Both go on: a take fires.
            let take = try await rig.fireShutters()
            #expect(take.allSucceeded, "\(take.failures)")
        }
    }

    @Test func aHostThatLeavesIsOfflineAndTheBrokerRestartingIsSurvived() async throws {
        try await AgentHarness.run(hosts: 2, cameras: 1) { harness in
            let rig = try await harness.coordinator()
            try await offThePool { try harness.broker.restart() }
            // Both sides reconnect by themselves, and say so.
            let url = harness.broker.url
            try await waitUntil("every side to reconnect") {
                let log = harness.log
                return log.contains("h0: connected to \(url) again") && log.contains("h1: connected to \(url) again")
                    && log.contains("coordinator: connected to the broker \(url) again")
            }
            // The broker forgot the retained records; the agents published theirs again, so a coordinator that
            // starts now finds both hosts.
            let late = try await harness.coordinator()
            #expect(late.hosts.map(\.name) == ["h0", "h1"])
            let take = try await rig.fireShutters()
            #expect(take.allSucceeded, "\(take.failures)\n\(harness.log)")
            await offThePool { harness.agents[1].stop() }
            try await waitUntil("h1 to be offline") { rig.hosts.first { $0.name == "h1" }?.isOnline == false }
            let partial = try await rig.fireShutters()
            #expect(partial.outcomes.map(\.camera) == ["h0/cam0"])
        }
    }

    @Test func aBrokerWithPasswordsAnACLAndTLSTakesTheRightCredentialsOnly() async throws {
        var options = MosquittoBroker.Options()
        options.users = ["h0": "secret-a", "coordinator": "secret-c"]
        options.tls = true
        // The ACL of the broker's article: a host publishes only its own record and its answers.
        options.acl = [
            "user coordinator", "topic readwrite vf/default/#", "",
            "pattern read vf/default/cmd", "pattern readwrite vf/default/host/%u/state",
            "pattern write vf/default/coord/+/reply",
        ]
        let loggingIn: AgentHarness.Configure = { configuration, _ in
            configuration.broker.username = "h0"
            configuration.broker.password = "secret-a"
        }
        try await AgentHarness.run(hosts: 1, cameras: 1, broker: options, configure: loggingIn) { harness in
            let rig = try await harness.coordinator { configuration in
                configuration.broker.username = "coordinator"
                configuration.broker.password = "secret-c"
            }
            #expect(harness.broker.url.hasPrefix("mqtts://"))
            let take = try await rig.fireShutters()
            #expect(take.allSucceeded, "\(take.failures)")
            var wrong = NetworkRig.Configuration(broker: try harness.brokerConfiguration())
            wrong.broker.username = "coordinator"
            wrong.broker.password = "guess"
            let intruder = try NetworkRig(configuration: wrong)
            await #expect {
                try await intruder.connect(timeout: .seconds(3))
            } throws: { error in
                let error = error as? ViewfinderError
                return error?.code == .connectionFailed && error?.message.contains("refused the connection") == true
            }
            var untrusting = NetworkRig.Configuration(broker: try harness.brokerConfiguration())
            untrusting.broker.tls = .init(certificateAuthorityFile: "/etc/ssl/certs/ca-certificates.crt")
            untrusting.broker.username = "coordinator"
            untrusting.broker.password = "secret-c"
            let stranger = try NetworkRig(configuration: untrusting)
            await #expect(throws: ViewfinderError.self) { try await stranger.connect(timeout: .seconds(3)) }
        }
    }

    @Test func theFileServerWantsItsTokenAndStaysInItsFolder() async throws {
        try await AgentHarness.run(hosts: 1, cameras: 1) { harness in
            let rig = try await harness.coordinator()
            let take = try await rig.capturePictures(into: harness.folder + "/in", take: "tk")
            let file = try #require(try take["h0/cam0"]?.result.get().files.first)
            let port = harness.agents[0].files.port
            let token = harness.agents[0].files.token
            let name = file.item.name
            try await onOwnThread {
                let refused = try HTTPTestClient.get(port: port, "/files/tk/\(name)")
                #expect(refused.status == 403)
                let whole = try HTTPTestClient.get(
                    port: port, "/files/tk/\(name)", headers: ["X-Viewfinder-Token": token])
                #expect(whole.status == 200)
                #expect(whole.body == Array(FileManager.default.contents(atPath: file.path) ?? Data()))
                for path in ["/files/../../etc/passwd", "/files/tk/..", "/files/tk/%2e%2e", "/files/.x/y", "/other"] {
                    let outside = try HTTPTestClient.get(port: port, path, headers: ["X-Viewfinder-Token": token])
                    #expect(outside.status == 404, "\(path)")
                }
            }
        }
    }
}

/// The answers to command `id` the client heard on `topic`, in order.
private func answers(_ client: RecordingClient, _ topic: String, id: String) -> [RigWire.Reply] {
    client.messages(on: topic).compactMap { message in
        guard message.correlationData == Array(id.utf8) else { return nil }
        return try? RigWire.decode(RigWire.Reply.self, from: message.payload)
    }
}
