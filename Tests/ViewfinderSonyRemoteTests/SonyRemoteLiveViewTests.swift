import Testing
import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSimulator
import ViewfinderSonyRemote
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The Sony Camera Remote API's live view: the stream's reader against packets as the simulator writes them and
/// against packets out of form, and the driver's live view against the simulated α6000.
@Suite struct SonyRemoteLiveViewTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9]

    @Test func packetsCutAnywhereGiveTheNewestFrameTheBytesComplete() throws {
        let stream =
            SonyRemoteSimulator.liveViewPacket(
                jpeg: Self.jpeg, sequence: 1, milliseconds: 100, padding: 3)
            + SonyRemoteSimulator.liveViewPacket(jpeg: Self.jpeg + [7], sequence: 2, milliseconds: 200)
        for cut in [1, 8, 136, 140, 150, stream.count - 1] {
            var reader = SonyRemoteLiveViewReader(maximumFrameLength: 1024)
            let first = try reader.take(stream[..<cut])
            let second = try reader.take(stream[cut...])
            let frames = [first, second].compactMap { $0 }
            #expect(frames.last?.sequence == 2, "cut at \(cut)")
            #expect(frames.last?.jpeg == Self.jpeg + [7], "cut at \(cut)")
            #expect(frames.last?.milliseconds == 200, "cut at \(cut)")
        }
        // Both packets at once: the older frame is dropped.
        var reader = SonyRemoteLiveViewReader(maximumFrameLength: 1024)
        #expect(try reader.take(stream)?.sequence == 2)
    }

    @Test func aBadStartByteIsAClearError() {
        var packet = SonyRemoteSimulator.liveViewPacket(jpeg: Self.jpeg, sequence: 1, milliseconds: 0)
        packet[0] = 0x7E
        var reader = SonyRemoteLiveViewReader(maximumFrameLength: 1024)
        let error = #expect(throws: ViewfinderError.self) { try reader.take(packet) }
        #expect(error?.code == .malformedData)
        #expect(
            error?.message.contains("0x7e, not the start byte 0xFF") == true,
            "\(String(describing: error))")
    }

    @Test func aMissingStartCodeAndASizeOverTheBoundAreRefusedBeforeThePayload() {
        var packet = SonyRemoteSimulator.liveViewPacket(jpeg: Self.jpeg, sequence: 1, milliseconds: 0)
        packet[9] = 0
        var reader = SonyRemoteLiveViewReader(maximumFrameLength: 1024)
        let missing = #expect(throws: ViewfinderError.self) { try reader.take(packet) }
        #expect(missing?.message.contains("start code") == true, "\(String(describing: missing))")
        // Only the headers of a packet that says 16 MiB: refused before a byte of its payload.
        let headers = Array(
            SonyRemoteSimulator.liveViewPacket(jpeg: [], sequence: 1, milliseconds: 0)[
                ..<SonyRemoteLiveViewReader.headerLength])
        var huge = headers
        huge[12...14] = [0xFF, 0xFF, 0xFF]
        var bounded = SonyRemoteLiveViewReader(maximumFrameLength: 1024)
        let tooLong = #expect(throws: ViewfinderError.self) { try bounded.take(huge) }
        #expect(tooLong?.code == .malformedData)
        #expect(
            tooLong?.message.contains("16777215 bytes, more than the 1024") == true,
            "\(String(describing: tooLong))")
    }

    @Test func framesNotAskedForAreDroppedAndTheNextOneReturned() async throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let go = Locked(false)
        let server = try PlatformThread(name: "test-sony-stream") {
            guard let client = try? listener.accept(timeout: .seconds(60)) else { return }
            defer { client.close() }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = buffer.withUnsafeMutableBytes {
                try? client.receive(into: $0, timeout: .seconds(60), while: "reading")
            }
            // The head and three frames in one send: on loopback they all wait at the client before it sees the head.
            let old = (UInt16(1)...3).flatMap {
                SonyRemoteSimulator.liveViewPacket(
                    jpeg: Self.jpeg + [UInt8($0)], sequence: $0, milliseconds: 0)
            }
            let head = Array("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            guard (try? client.send(head + old, timeout: .seconds(10), while: "sending")) != nil else {
                return
            }
            while !go.withLock({ $0 }) { usleep(2000) }
            var sequence: UInt16 = 4
            while (try? client.send(
                SonyRemoteSimulator.liveViewPacket(
                    jpeg: Self.jpeg + [4], sequence: sequence, milliseconds: 0),
                timeout: .seconds(10), while: "sending")) != nil
            {
                sequence &+= 1
                usleep(20_000)
            }
        }
        let liveView = try await SonyRemoteLiveView.open(
            HTTPURL(host: "127.0.0.1", port: listener.localPort, target: "/liveview"),
            peer: "the test stream",
            timeout: SonyRemoteCameraTests.deadline, maximumFrameLength: 1024)
        go.withLock { $0 = true }
        let frame = try await liveView.nextFrame()
        liveView.close()
        await offThePool {
            listener.shutdown()
            server.join()
            listener.close()
        }
        #expect(frame.sequence >= 4)
        #expect(frame.jpeg == Self.jpeg + [4])
    }

    @Test func theSimulatedStreamsFramesReachTheLiveViewPublisher() async throws {
        try await SonyRemoteCameraTests.withSimulator { camera, _, log in
            try await camera.connect()
            #expect(camera.supportedFunctionality.contains(.liveView))
            let frames = Locked<[LiveViewFrame]>([])
            let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
                .sinkWithReadyHandler { _ in
                } receiveValue: { frame, ready in
                    frames.withLock { $0.append(frame) }
                    ready()
                }
            try await waitUntil("three frames") { frames.withLock { $0.count } >= 3 }
            cancellable.cancel()
            let seen = frames.withLock { $0 }
            #expect(seen.allSatisfy { $0.pixelSize == Dimensions(width: 320, height: 240) })
            #expect(
                seen.allSatisfy {
                    $0.jpegData.prefix(2) == [0xFF, 0xD8] && $0.jpegData.suffix(2) == [0xFF, 0xD9]
                })
            #expect(log.withLock { $0 }.contains("startLiveview"))
            try await waitUntil("live view to stop") { log.withLock { $0.contains("stopLiveview") } }
            try await camera.disconnect()
        }
    }
}
