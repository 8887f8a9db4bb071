import Foundation
import Glibc
import Testing
import ViewfinderTestSupport

/// `viewfinder preview --test-pattern` as a process, read by raw-socket HTTP clients.
///
/// One preview at a time: each draws and encodes frames, and the machine is shared with the other suites.
@Suite(.serialized) struct PreviewServerTests {
    /// What `/stats` says, the parts the tests read.
    struct Statistics: Decodable {
        struct Stream: Decodable {
            var viewer: String
            var framesSent: Int
            var framesSkipped: Int
        }

        var source: String
        var format: String
        var frames: Int
        var framesPerSecond: Double
        var framesEncoded: Int
        var jpegBytes: Int
        var connections: Int
        var streams: [Stream]
    }

    /// A running preview of the test pattern, its port and its token.
    final class Preview {
        let process: ChildProcess
        let address: PrintedAddress
        var port: UInt16 { address.port }

        init(_ options: [String]) throws {
            process = try Tool.start(["preview", "--test-pattern"] + options, waitingFor: "Ctrl-C stops")
            address = try PrintedAddress(in: process.standardOutput)
        }

        /// Asks for `path` with the token.
        func get(_ path: String, method: String = "GET") throws -> HTTPReply {
            try HTTPTestClient.get(port: port, path, method: method, headers: address.tokenField)
        }

        /// Opens `path` as a stream of parts, with the token.
        func stream(_ path: String = "/stream.mjpeg", receiveBuffer: Int32? = nil) throws -> MJPEGTestReader {
            try MJPEGTestReader(port: port, path: path, receiveBuffer: receiveBuffer, headers: address.tokenField)
        }

        func statistics() throws -> Statistics {
            let reply = try get("/stats")
            guard reply.status == 200, reply.headers["content-type"] == "application/json" else {
                throw TestFailure("/stats answered \(reply.status) \(reply.headers)")
            }
            return try JSONDecoder().decode(Statistics.self, from: Data(reply.body))
        }

        /// Reads `/stats` until `condition` holds, for at most `timeout`.
        func statistics(within timeout: Duration, until condition: (Statistics) -> Bool) throws -> Statistics {
            let deadline = ContinuousClock.now + timeout
            var statistics = try statistics()
            while !condition(statistics) && ContinuousClock.now < deadline {
                usleep(100_000)
                statistics = try self.statistics()
            }
            return statistics
        }

        /// Stops the preview as Ctrl-C does and returns its exit status.
        func stop() -> Int32? {
            process.interrupt()
            return process.wait(timeout: .seconds(30))
        }
    }

    @Test func servesThePageTheStreamASnapshotAndStatistics() async throws {
        try await onOwnThread {
            let preview = try Preview(["--format", "320x240@30"])
            #expect(preview.process.standardOutput.hasPrefix("Previewing test pattern at 320x240@30/nv12\n"))

            let page = try HTTPTestClient.get(port: preview.port, "/")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            for part in ["<img id=\"live\"", "/stream.mjpeg?viewer=", "fetch(\"/stats\"", "<h1>test pattern</h1>"] {
                #expect(page.text.contains(part), "the page lacks \(part)")
            }

            let stream = try preview.stream("/stream.mjpeg?viewer=test-reader")
            var numbers: [Int] = []
            for _ in 0..<5 {
                let part = try stream.readPart()
                #expect(part.headers["content-type"] == "image/jpeg")
                let size = JPEGCheck.dimensions(of: part.body)
                #expect(size?.width == 320 && size?.height == 240, "part \(numbers.count) is not a 320x240 JPEG")
                numbers.append(try #require(part.headers["x-frame-number"].flatMap(Int.init)))
            }
            #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "frame numbers \(numbers)")

            // The server counts a part once it has sent it, which can be just after the reader has it.
            let first = try preview.statistics(within: .seconds(30)) { statistics in
                (statistics.streams.first { $0.viewer == "test-reader" }?.framesSent ?? 0) >= 5
            }
            #expect(first.source == "test pattern" && first.format == "320x240@30/nv12")
            let viewer = first.streams.first { $0.viewer == "test-reader" }
            #expect((viewer?.framesSent ?? 0) >= 5, "the open stream is not in \(first.streams)")
            let later = try preview.statistics(within: .seconds(30)) { $0.frames > first.frames }
            #expect(later.frames > first.frames, "the frame count did not advance from \(first.frames)")
            #expect(later.framesEncoded >= 5 && later.jpegBytes > 0)

            let snapshot = try preview.get("/snapshot.jpg")
            #expect(snapshot.status == 200 && snapshot.headers["content-type"] == "image/jpeg")
            #expect(JPEGCheck.dimensions(of: snapshot.body)?.width == 320, "the snapshot is not a 320x240 JPEG")

            #expect(preview.stop() == 0, "\(preview.process.standardError)")
            #expect(preview.process.standardOutput.contains("Stopped after"), "\(preview.process.standardOutput)")
        }
    }

    @Test func answersOtherRequestsWithTheRightStatus() async throws {
        try await onOwnThread {
            let preview = try Preview([])
            let head = try HTTPTestClient.get(port: preview.port, "/", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty && Int(head.headers["content-length"] ?? "") ?? 0 > 1000)
            #expect(try preview.get("/missing").status == 404)
            #expect(try preview.get("/", method: "POST").status == 405)
            // Everything but the page needs the token, which the printed address holds.
            for path in ["/stream.mjpeg", "/snapshot.jpg", "/stats", "/missing"] {
                #expect(try HTTPTestClient.get(port: preview.port, path).status == 403, "\(path) without the token")
            }
            let player = try MJPEGTestReader(port: preview.port, path: "/stream.mjpeg?token=\(preview.address.token)")
            #expect(try player.readPart().body.prefix(2) == [0xFF, 0xD8], "a player's stream with ?token=")
            // The tool prints the players' address just after the page's: wait for its line rather than read early.
            let streamAddress = "http://127.0.0.1:\(preview.port)/stream.mjpeg?token=\(preview.address.token)"
            #expect(
                preview.process.waitForOutput(timeout: .seconds(30)) { $0.contains(streamAddress) },
                "\(preview.process.standardOutput)")

            let garbage = try TestConnection(port: preview.port)
            try garbage.send(Array("HELLO\r\n\r\n".utf8))
            #expect(try garbage.readHead().status == 400)

            let silent = try TestConnection(port: preview.port)
            #expect(try silent.readHead().status == 408, "a client that sends nothing is answered 408 and dropped")
            #expect(preview.stop() == 0, "\(preview.process.standardError)")
        }
    }

    /// A viewer that stops reading holds no queue: the server sends it no more than the socket buffers hold while the
    /// source runs on, and when the viewer reads again it gets the newest frame, skipping the ones in between. (The
    /// server's memory meanwhile is checked by Scripts/preview-browser-check.py, out of the unit tests.)
    @Test func aSlowViewerGetsFewerFramesAndTheServerDoesNotGrow() async throws {
        try await onOwnThread {
            let preview = try Preview(["--format", "1920x1080@60", "--quality", "95"])
            let stream = try preview.stream("/stream.mjpeg?viewer=slow", receiveBuffer: 16384)
            let firstPart = try stream.readPart()
            #expect(JPEGCheck.dimensions(of: firstPart.body)?.width == 1920)
            let jpegBytes = firstPart.body.count
            let before = try preview.statistics()
            let published = 300
            let after = try preview.statistics(within: .seconds(120)) { $0.frames >= before.frames + published }
            try #require(after.frames >= before.frames + published, "the source published too few frames: \(after)")
            let slow = try #require(after.streams.first { $0.viewer == "slow" })
            // What the socket buffers (the server's 256 KiB send buffer, doubled by the kernel, and the reader's) hold.
            let inFlight = 2 + (2 * 262_144 + 65_536) / jpegBytes
            #expect(
                slow.framesSent <= inFlight, "a stalled viewer was sent \(slow.framesSent) frames of \(jpegBytes) B")

            var previous = try #require(firstPart.headers["x-frame-number"].flatMap(Int.init))
            var largestJump = 0
            for _ in 0..<(inFlight + 3) {
                let number = try #require(try stream.readPart().headers["x-frame-number"].flatMap(Int.init))
                largestJump = max(largestJump, number - previous)
                previous = number
            }
            #expect(largestJump >= published / 2, "frames went on one by one (largest jump \(largestJump))")
            let skipped = try preview.statistics().streams.first { $0.viewer == "slow" }?.framesSkipped ?? 0
            #expect(skipped >= published / 2, "the stream counts \(skipped) skipped frames")
            #expect(preview.stop() == 0, "\(preview.process.standardError)")
        }
    }

    /// One address holds all but a quarter of the connections (3 of 4), and is refused more.
    @Test func refusesConnectionsBeyondTheLimit() async throws {
        try await onOwnThread {
            let preview = try Preview(["--max-connections", "4"])
            var streams = try (0..<3).map { _ in try preview.stream() }
            for stream in streams { _ = try stream.readPart() }
            let refused = try HTTPTestClient.get(port: preview.port, "/")
            #expect(refused.status == 503)
            #expect(
                refused.text.contains("3 connections at most to one address, and 127.0.0.1 has them open"),
                "\(refused.text)")

            streams.removeLast()
            let deadline = ContinuousClock.now + .seconds(30)
            var status = refused.status
            while status == 503 && ContinuousClock.now < deadline {
                usleep(50_000)
                status = try HTTPTestClient.get(port: preview.port, "/").status
            }
            #expect(status == 200, "a closed stream did not free its place")
            #expect(preview.stop() == 0, "\(preview.process.standardError)")
        }
    }

    /// Over-cap connections are answered from a thread of their own: a flood of clients that never send their
    /// request, each holding its answer for the 200 ms the server waits for it, does not hold up a client that comes
    /// after them once a place is free, which the accept loop serves before the flood has had its answers.
    @Test func clientsOverTheCapDoNotHoldUpTheAcceptLoop() async throws {
        try await onOwnThread {
            let preview = try Preview(["--max-connections", "1"])
            var stream: MJPEGTestReader? = try preview.stream()
            _ = try stream?.readPart()
            // As many as the server keeps waiting for an answer: 16, 3.2 s of answers one after another, all taken
            // from the listen backlog (each a descriptor in the server) before the stream closes.
            let descriptors = Self.openDescriptors(of: preview.process.pid)
            let flood = try (0..<16).map { _ in try TestConnection(port: preview.port, timeout: .seconds(30)) }
            let accepted = ContinuousClock.now + .seconds(30)
            while Self.openDescriptors(of: preview.process.pid) < descriptors + 16 && ContinuousClock.now < accepted {
                usleep(2_000)
            }
            stream = nil
            // The place the stream held frees once its thread sees the close and ends; a request then gets the page.
            let freed = ContinuousClock.now + .seconds(30)
            while Self.threads(of: preview.process.pid).contains("preview-client") && ContinuousClock.now < freed {
                usleep(5_000)
            }
            let served = try HTTPTestClient.get(port: preview.port, "/")
            #expect(served.status == 200)
            // The last of the flood still waits for its answer: the server answered the page before it.
            let last = try #require(flood.last)
            #expect(!last.hasDataWaiting, "the flood was answered before the page")
            #expect(try last.readHead().status == 503)
            for connection in flood.dropLast() {
                #expect(try connection.readHead().status == 503)
            }
            #expect(preview.stop() == 0, "\(preview.process.standardError)")
        }
    }

    /// A server that runs out of descriptors waits for connections to close instead of spinning on accept's EMFILE,
    /// and serves again once they have.
    @Test func runningOutOfDescriptorsDoesNotSpinTheAcceptLoop() async throws {
        try await onOwnThread {
            let process = try ChildProcess(
                "/bin/sh", ["-c", "ulimit -n 40 && exec \"$0\" preview --test-pattern --max-connections 8", Tool.path])
            guard process.waitForOutput(timeout: .seconds(60), until: { $0.contains("Ctrl-C stops") }),
                let start = process.standardOutput.range(of: "http://127.0.0.1:"),
                let port = UInt16(process.standardOutput[start.upperBound...].prefix { $0.isNumber })
            else { throw TestFailure("the preview did not start:\n\(process.standardOutput)\(process.standardError)") }
            // Silent clients take every descriptor the server has left, and more wait in the listen backlog.
            var clients = try (0..<48).map { _ in try TestConnection(port: port, timeout: .seconds(30)) }
            let filled = ContinuousClock.now + .seconds(30)
            while Self.openDescriptors(of: process.pid) < 38 && ContinuousClock.now < filled {
                usleep(20_000)
            }
            #expect(Self.openDescriptors(of: process.pid) >= 38, "the server never ran out of descriptors")
            // The accept loop alone: the rest of the process draws and encodes the test pattern meanwhile, which under
            // the thread sanitizer on a busy machine takes more CPU than a spinning loop would get. Waiting, the loop
            // wakes a few times a second; spinning, it would use most of a core.
            let before = process.cpuSecondsSoFar(ofThreadsNamed: "preview-accept")
            usleep(1_500_000)
            let spent = process.cpuSecondsSoFar(ofThreadsNamed: "preview-accept") - before
            #expect(spent < 0.1, "the accept loop used \(spent) s of CPU in 1.5 s while out of descriptors")
            clients.removeAll()
            var status = 0
            let deadline = ContinuousClock.now + .seconds(30)
            while status != 200 && ContinuousClock.now < deadline {
                status = (try? HTTPTestClient.get(port: port, "/").status) ?? 0
                if status != 200 { usleep(50_000) }
            }
            #expect(status == 200, "the server did not serve again once the clients left")
            process.interrupt()
            #expect(process.wait(timeout: .seconds(30)) == 0, "\(process.standardError)")
        }
    }

    /// The names of a process's threads.
    static func threads(of pid: pid_t) -> [String] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let task = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard task.first?.isNumber == true, let file = fopen("/proc/\(pid)/task/\(task)/comm", "r") else {
                continue
            }
            var line = [CChar](repeating: 0, count: 64)
            if fgets(&line, Int32(line.count), file) != nil {
                names.append(
                    String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            fclose(file)
        }
        return names
    }

    /// The number of descriptors a process has open.
    static func openDescriptors(of pid: pid_t) -> Int {
        guard let directory = opendir("/proc/\(pid)/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return count
    }

    @Test func saysWhenThePortIsTaken() async throws {
        try await onOwnThread {
            let preview = try Preview([])
            let second = try Tool.run("preview", "--test-pattern", "--port", String(preview.port))
            #expect(second.status == 74, "\(second)")
            #expect(second.standardError.contains("another program uses the port"), "\(second)")
            #expect(preview.stop() == 0, "\(preview.process.standardError)")
        }
    }
}
