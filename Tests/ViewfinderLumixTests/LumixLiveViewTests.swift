import Testing
import ViewfinderCore
import ViewfinderLumix
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

/// Live view: JPEG datagrams, the newest taken at the pace frames are asked for.
@Suite struct LumixLiveViewTests {
    /// A datagram as the camera sends it: a header of its own, then a small JPEG-shaped image marked `mark`.
    static func datagram(_ mark: UInt8, whole: Bool = true) -> [UInt8] {
        [UInt8](repeating: 0, count: 32) + [0xFF, 0xD8, 0xFF, 0xFE, mark] + (whole ? [0xFF, 0xD9] : [])
    }

    /// Starts live view on the recorded TZ90's connection and returns the connection and where to send datagrams.
    static func startLiveView(
        _ camera: LumixCamera, _ responder: ScriptedHTTPResponder
    ) async throws -> (LumixConnection, SocketAddress) {
        let connection = try #require(camera.driverCore.currentConnection)
        try await connection.startLiveView()
        let query = try #require(responder.queries.last { $0.hasPrefix("mode=startstream") })
        let port = try #require(UInt16(query.dropFirst("mode=startstream&value=".count)))
        return (connection, try SocketAddress(numeric: "127.0.0.1", port: port))
    }

    @Test func theSimulatedLumixsFramesReachTheLiveViewPublisher() async throws {
        try await LumixSimulatorTests.withSimulator { camera, _ in
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
            try await camera.disconnect()
        }
    }

    @Test func framesNotAskedForAreDroppedForTheNewestAndStrangersAreIgnored() async throws {
        try await LumixCameraTests.withConnected { camera, responder in
            let (connection, target) = try await Self.startLiveView(camera, responder)
            let sender = try Socket.udp(bindingTo: "127.0.0.1")
            let stranger = try Socket.udp(bindingTo: "127.0.0.2")
            defer {
                sender.close()
                stranger.close()
            }
            // Loopback delivers each datagram before send returns: all five wait when the frame is asked for.
            for mark in UInt8(1)...5 {
                try sender.send(Self.datagram(mark), to: target, timeout: .seconds(1), while: "sending")
            }
            #expect(try await connection.liveViewImage() == Array(Self.datagram(5).dropFirst(32)))
            try stranger.send(Self.datagram(99), to: target, timeout: .seconds(1), while: "sending")
            try sender.send(Self.datagram(6), to: target, timeout: .seconds(1), while: "sending")
            #expect(try await connection.liveViewImage() == Array(Self.datagram(6).dropFirst(32)))

            try sender.send(Self.datagram(7, whole: false), to: target, timeout: .seconds(1), while: "sending")
            let error = await #expect(throws: ViewfinderError.self) { try await connection.liveViewImage() }
            #expect(error?.code == .malformedData)
            #expect(error?.message.contains("cut short") == true, "\(String(describing: error))")
            await connection.endLiveView()
            #expect(responder.queries.contains("mode=stopstream"))
        }
    }

    @Test func aCameraThatSendsNothingTimesOut() async throws {
        try await LumixCameraTests.withConnected(liveViewTimeout: .milliseconds(200)) { camera, responder in
            let (connection, _) = try await Self.startLiveView(camera, responder)
            let error = await #expect(throws: ViewfinderError.self) { try await connection.liveViewImage() }
            #expect(error?.code == .timeout)
            #expect(error?.message.contains("no live view frame") == true, "\(String(describing: error))")
        }
    }

    @Test func aDatagramWithoutAJPEGIsRefused() async throws {
        try await LumixCameraTests.withConnected { camera, responder in
            let (connection, target) = try await Self.startLiveView(camera, responder)
            let sender = try Socket.udp(bindingTo: "127.0.0.1")
            defer { sender.close() }
            try sender.send([UInt8](repeating: 0x11, count: 40), to: target, timeout: .seconds(1), while: "sending")
            let error = await #expect(throws: ViewfinderError.self) { try await connection.liveViewImage() }
            #expect(error?.code == .malformedData)
            #expect(error?.message.contains("holds no JPEG") == true, "\(String(describing: error))")
        }
    }
}
