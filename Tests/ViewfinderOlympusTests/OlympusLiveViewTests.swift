import Foundation
import Testing
import ViewfinderCore
import ViewfinderOlympus
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Live view: JPEG frames reassembled from RTP packets, a frame with a packet missing dropped, packets not asked for
/// dropped unread.
@Suite(.timeLimit(.minutes(3))) struct OlympusLiveViewTests {
    /// A JPEG-shaped frame marked `mark`, `length` bytes long.
    static func jpeg(_ mark: UInt8, length: Int = 3000) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xFE, mark] + [UInt8](repeating: mark, count: max(0, length - 7)) + [0xFF, 0xD9]
    }

    /// The packets of `jpeg` as the simulated camera sends them, numbered from `sequence`.
    static func packets(_ jpeg: [UInt8], sequence: UInt16) -> [[UInt8]] {
        OlympusSimulator.rtpPackets(of: jpeg, sequence: sequence, timestamp: 0)
    }

    @Test func framesAreReassembledAndOneMissingAPacketIsDropped() throws {
        var assembler = OlympusRTPAssembler()
        let first = Self.packets(Self.jpeg(1), sequence: 65534)
        #expect(first.count == 3)
        var frames: [OlympusRTPAssembler.Frame] = []
        for packet in first {
            if let frame = try assembler.take(packet[...]) { frames.append(frame) }
        }
        #expect(frames.map(\.jpeg) == [Self.jpeg(1)])
        #expect(frames.first?.orientation == 1)
        // The second frame loses its middle packet: it is dropped, and the third, whole, comes through.
        let second = Self.packets(Self.jpeg(2), sequence: 1)
        #expect(try assembler.take(second[0][...]) == nil)
        #expect(try assembler.take(second[2][...]) == nil)
        var third: OlympusRTPAssembler.Frame?
        for packet in Self.packets(Self.jpeg(3), sequence: 4) {
            third = try assembler.take(packet[...]) ?? third
        }
        #expect(third?.jpeg == Self.jpeg(3))
        #expect(assembler.droppedFrames == 1)
    }

    @Test func framesThatAreNoJPEGOrTooLongAreDroppedAndPacketsOutOfFormRefused() throws {
        var assembler = OlympusRTPAssembler(maximumFrameLength: 4000)
        var cutShort = Self.packets(Self.jpeg(1), sequence: 0)
        cutShort[2].removeLast(2)
        for packet in cutShort { #expect(try assembler.take(packet[...]) == nil) }
        for packet in Self.packets(Self.jpeg(2, length: 5000), sequence: 3) {
            #expect(try assembler.take(packet[...]) == nil)
        }
        #expect(assembler.droppedFrames == 2)
        for packet: [UInt8] in [
            [0x80, 0x80, 0, 1], [0x40] + [UInt8](repeating: 0, count: 11),
            [0x90, 0x80] + [UInt8](repeating: 0, count: 10) + [0, 0, 0, 9, 1],
            [0xA0, 0x80] + [UInt8](repeating: 0, count: 10) + [200],
            [0x8F, 0x80] + [UInt8](repeating: 0, count: 20),
        ] {
            let error = #expect(throws: ViewfinderError.self) { try assembler.take(packet[...]) }
            #expect(error?.code == .malformedData, "\(packet)")
        }
    }

    @Test func theNewestWaitingFrameIsReturnedOlderOnesDroppedAndStrangersIgnored() async throws {
        let thread = try IOThread(name: "test-liveview")
        let liveView = try OlympusLiveView(
            host: "127.0.0.1", port: 0, thread: thread, timeout: .seconds(30), maximumFrameLength: 1 << 20)
        defer {
            liveView.close()
            thread.stop()
        }
        let target = try SocketAddress(numeric: "127.0.0.1", port: liveView.port)
        let sender = try Socket.udp(bindingTo: "127.0.0.1")
        let stranger = try Socket.udp(bindingTo: "127.0.0.2")
        defer {
            sender.close()
            stranger.close()
        }
        // Loopback delivers each packet before send returns: these frames wait, unread, when a frame is asked for,
        // and the fourth is under way: its first packet only.
        var sequence: UInt16 = 0
        for mark in UInt8(1)...3 {
            try stranger.send(
                Self.packets(Self.jpeg(99), sequence: sequence)[0], to: target, timeout: .seconds(1), while: "sending")
            for packet in Self.packets(Self.jpeg(mark), sequence: sequence) {
                try sender.send(packet, to: target, timeout: .seconds(1), while: "sending")
                sequence &+= 1
            }
        }
        let fourth = Self.packets(Self.jpeg(4), sequence: sequence)
        try #require(fourth.count > 1)
        try sender.send(fourth[0], to: target, timeout: .seconds(1), while: "sending")
        #expect(try await liveView.nextFrame().jpeg == Self.jpeg(3))

        // The frame under way is finished by the packets that come after the call, a stranger's between them.
        let asked = Task { try await liveView.nextFrame() }
        try stranger.send(fourth[1], to: target, timeout: .seconds(1), while: "sending")
        for packet in fourth.dropFirst() {
            try sender.send(packet, to: target, timeout: .seconds(1), while: "sending")
        }
        #expect(try await asked.value.jpeg == Self.jpeg(4))
    }

    @Test func aCameraThatSendsNothingTimesOut() async throws {
        let thread = try IOThread(name: "test-liveview")
        let liveView = try OlympusLiveView(
            host: "127.0.0.1", port: 0, thread: thread, timeout: .milliseconds(200), maximumFrameLength: 1 << 20)
        defer {
            liveView.close()
            thread.stop()
        }
        let error = await #expect(throws: ViewfinderError.self) { try await liveView.nextFrame() }
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("no whole live view frame") == true, "\(String(describing: error))")
    }

    @Test func theSimulatedOlympussFramesReachTheLiveViewPublisher() async throws {
        try await OlympusCameraTests.withSimulator { camera, _, log in
            try await camera.connect()
            #expect(camera.supportedFunctionality.contains(.liveView))
            // Frames are read, and reach subscribers, on the connection's live view thread.
            let thread = try #require(camera.driverCore.currentConnection?.liveViewExecutor as? IOThread)
            let frames = Locked<[LiveViewFrame]>([])
            let onLiveViewThread = Locked<[Bool]>([])
            let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
                .sinkWithReadyHandler { _ in
                } receiveValue: { frame, ready in
                    frames.withLock { $0.append(frame) }
                    onLiveViewThread.withLock { $0.append(thread.isCurrent) }
                    ready()
                }
            try await waitUntil("three frames") { frames.withLock { $0.count } >= 3 }
            cancellable.cancel()
            let seen = frames.withLock { $0 }
            #expect(onLiveViewThread.withLock { $0.allSatisfy { $0 } })
            #expect(seen.allSatisfy { $0.pixelSize == Dimensions(width: 320, height: 240) })
            #expect(
                seen.allSatisfy { $0.jpegData.prefix(2) == [0xFF, 0xD8] && $0.jpegData.suffix(2) == [0xFF, 0xD9] })
            try await waitUntil("live view to stop") { log.withLock { $0.contains("live view stopped") } }
            try await camera.disconnect()
        }
    }

    @Test func olympuswifiReceivesTheSimulatedLiveView() async throws {
        guard access(OlympusSimulatorTests.python, X_OK) == 0 else {
            throw TestFailure("\(OlympusSimulatorTests.python) is missing: make test-deps installs olympuswifi")
        }
        let simulator = try OlympusSimulator(configuration: .init(port: 0))
        let port = try simulator.start()
        let result: ChildProcess.Result
        do {
            result = try await ChildProcess.run([
                OlympusSimulatorTests.python,
                OlympusSimulatorTests.repository + "Tests/ViewfinderOlympusTests/Peers/olympuswifi-liveview.py",
                String(port), "5",
            ])
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
        try #require(result.status == 0, "\(result)")
        let line = try #require(result.standardOutput.split(separator: "\n").last { $0.hasPrefix("{") })
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(report["frames"] as? Int == 5)
        #expect(report["jpeg"] as? Bool == true)
        #expect(report["funcids"] as? [String] == ["orientation"])
        #expect(report["extension"] as? String == "0004000100000001")
    }
}
