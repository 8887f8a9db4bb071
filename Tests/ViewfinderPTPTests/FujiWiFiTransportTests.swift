import Synchronization
import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// Fujifilm's WiFi protocol against scripted cameras over real loopback TCP: the 82-byte init and its retry, the
/// zero-padded acknowledgement, USB-style containers both ways, the event and live view ports the camera opens late,
/// and cameras that close, stay silent or never open a port.
@Suite struct FujiWiFiTransportTests {
    /// Opens a transport to `peer` and a session over it.
    func open(_ peer: FujiScriptedPeer, configuration: FujiWiFiTransport.Configuration? = nil) async throws -> (
        FujiWiFiTransport, PTPSession
    ) {
        let endpoint = FujiWiFiEndpoint(host: "127.0.0.1", configuration: configuration ?? peer.configuration())
        let transport = try #require(try await endpoint.openTransport() as? FujiWiFiTransport)
        return (transport, try await PTPSession.open(over: transport))
    }

    @Test func theInitIs82BytesWithTheClientsGUIDAndName() throws {
        let guid = PTPIPGUID(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C_0D0E_0F10)
        let bytes = FujiWiFiPacket.initRequest(guid: guid, name: "Viewfinder")
        #expect(bytes.count == 82)
        #expect(Array(bytes[0..<12]) == [82, 0, 0, 0, 1, 0, 0, 0, 0xF2, 0xE4, 0x53, 0x8F])
        #expect(Array(bytes[12..<28]) == guid.bytes)
        #expect(Array(bytes[28..<32]) == [UInt8(ascii: "V"), 0, UInt8(ascii: "i"), 0])
        #expect(bytes[48...].allSatisfy { $0 == 0 })
        let long = FujiWiFiPacket.initRequest(guid: guid, name: String(repeating: "x", count: 100))
        #expect(long.count == 82)
        #expect(long[80...] == [0, 0], "the name is cut short of the end, so a NUL ends it")
    }

    @Test func aZeroPaddedAcknowledgementAndAShortOneAreBothAccepted() throws {
        let padded =
            [1, 0, 0, 0] + [UInt8](repeating: 7, count: 16) + [0x58, 0, 0x2D, 0] + [UInt8](repeating: 0, count: 36)
        #expect(
            try FujiWiFiPacket.decodeInitAnswer(type: 2, payload: padded)
                == .accepted(
                    .init(connectionNumber: 1, guid: try PTPIPGUID(bytes: [UInt8](repeating: 7, count: 16)), name: "X-")
                ))
        let unterminated = Array(padded[0..<24])
        guard case .accepted(let acceptance) = try FujiWiFiPacket.decodeInitAnswer(type: 2, payload: unterminated),
            acceptance.name == "X-"
        else {
            Issue.record("a name that runs to the end of the packet is the camera's name")
            return
        }
        #expect(throws: ViewfinderError.self) { try FujiWiFiPacket.decodeInitAnswer(type: 2, payload: [1, 0, 0, 0]) }
        #expect(throws: ViewfinderError.self) { try FujiWiFiPacket.decodeInitAnswer(type: 7, payload: padded) }
        #expect(try FujiWiFiPacket.decodeInitAnswer(type: 5, payload: [2, 0, 0, 0]) == .refused(.busy))
    }

    @Test func containersWithAnUnknownTypeOrAShortLengthAreMalformed() {
        let unknown = FujiWiFiPacket.Header(length: 12, kind: .event, code: 1, transactionID: 1).bytes
        var wrongType = unknown
        wrongType[4] = 9
        #expect(throws: ViewfinderError.self) { try FujiWiFiPacket.Header(decoding: wrongType) }
        var short = unknown
        short[0] = 11
        #expect(throws: ViewfinderError.self) { try FujiWiFiPacket.Header(decoding: short) }
        #expect(throws: ViewfinderError.self) { try FujiWiFiPacket.parameters(in: [UInt8](repeating: 0, count: 24)) }
        #expect(throws: ViewfinderError.self) { try FujiWiFiPacket.parameters(in: [1, 2, 3]) }
    }

    /// A session: OpenSession, GetDeviceInfo, a data-out phase, InitiateOpenCapture, then the event port and the live
    /// view port opened late, an event, and the newest of three frames.
    @Test func aSessionRunsOverContainersAndOpensTheLateChannels() async throws {
        let framesSent = Atomic(false)
        let inits = Locked<[[UInt8]]>([])
        let dataOut = Locked<[UInt8]>([])
        let peer = try FujiScriptedPeer { peer in
            let request = try peer.readInit()
            inits.withLock { $0.append(request) }
            try peer.acknowledge()
            try peer.openSession()
            let set = try peer.expectRequest(.setDevicePropValue)
            let data = try peer.expect(.data)
            guard data.header.code == PTPOperationCode.setDevicePropValue.rawValue, data.header.transactionID == set
            else { throw ViewfinderError(.malformedData, "the data container names \(data.header)") }
            dataOut.withLock { $0 = data.payload }
            try peer.respond(.ok, set)
            try peer.respond(.ok, try peer.expectRequest(PTPOperationCode(rawValue: 0x101C)))
            try peer.acceptEvents()
            try peer.sendEvent(.objectAdded, parameters: [0x42])
            try peer.acceptLiveView()
            for last in [1, 2, 3] as [UInt8] { try peer.sendFrame([0xFF, 0xD8, last, 0xFF, 0xD9]) }
            framesSent.store(true, ordering: .releasing)
            peer.waitForClose()
        }
        let (transport, session) = try await open(peer)
        #expect(transport.acceptance.name == "X-T4")
        #expect(session.deviceInfo.model == "Responder")
        _ = try await session.transaction(.setDevicePropValue, parameters: [0xDF01], sending: [5, 0])
        _ = try await session.transaction(PTPOperationCode(rawValue: 0x101C), parameters: [0, 0])
        try await transport.openEvents()
        var events = session.events.makeAsyncIterator()
        let event = try await events.next()
        #expect(event?.code == .objectAdded && event?.parameters == [0x42])
        try await transport.openLiveView()
        try await waitUntil("the peer to push three frames") { framesSent.load(ordering: .acquiring) }
        #expect(try await transport.liveViewFrame() == [0xFF, 0xD8, 3, 0xFF, 0xD9])
        #expect(transport.droppedLiveViewFrames == 2)
        await session.close()
        #expect(try await peer.recordedFailures() == [])
        #expect(inits.withLock { $0.map(\.count) } == [82])
        #expect(dataOut.withLock { $0 } == [5, 0])
    }

    /// Live view frames are read on the transport's one live view thread, which a task can prefer so that a frame
    /// wakes no other thread; once the session has closed the thread is gone and a frame is refused.
    @Test func liveViewFramesAreReadOnOneThreadUntilTheSessionCloses() async throws {
        let framesSent = Atomic(false)
        let peer = try FujiScriptedPeer { peer in
            try peer.accept()
            try peer.acceptLiveView()
            try peer.sendFrame([0xFF, 0xD8, 7, 0xFF, 0xD9])
            framesSent.store(true, ordering: .releasing)
            peer.waitForClose()
        }
        let (transport, session) = try await open(peer)
        try await transport.openLiveView()
        let thread = try #require(transport.liveViewExecutor as? IOThread)
        #expect(transport.liveViewExecutor as? IOThread === thread)
        try await waitUntil("the peer to push a frame") { framesSent.load(ordering: .acquiring) }
        let (frame, onThread) = try await Task(executorPreference: thread) {
            let frame = try await transport.liveViewFrame()
            return (frame, thread.isCurrent)
        }.value
        #expect(frame == [0xFF, 0xD8, 7, 0xFF, 0xD9])
        #expect(onThread)
        await session.close()
        #expect(transport.liveViewExecutor == nil)
        let closed = await #expect(throws: ViewfinderError.self) { _ = try await transport.liveViewFrame() }
        #expect(closed?.code == .notConnected)
        #expect(try await peer.recordedFailures() == [])
    }

    /// An X-T4 answers GetDeviceInfo over WiFi with an empty data phase: a DeviceInfo with Fujifilm's extension and
    /// the name from the camera's answer to the init stands in, so the Fuji dialect speaks to it.
    @Test func anEmptyDeviceInfoIsReplacedByFujifilmsOwn() async throws {
        let peer = try FujiScriptedPeer { peer in
            _ = try peer.readInit()
            try peer.acknowledge(name: "X-T4")
            try peer.respond(.ok, try peer.expectRequest(.openSession))
            try peer.sendData([], .getDeviceInfo, try peer.expectRequest(.getDeviceInfo))
            try peer.sendData([7, 0], .getDevicePropValue, try peer.expectRequest(.getDevicePropValue))
            peer.waitForClose()
        }
        let (_, session) = try await open(peer)
        #expect(session.deviceInfo.vendorExtensionID == 0x0E && session.deviceInfo.model == "X-T4")
        #expect(PTPDialects.dialect(for: session.deviceInfo).name == "Fujifilm")
        #expect(try await session.transaction(.getDevicePropValue, parameters: [0xD001]).data == [7, 0])
        await session.close()
        #expect(try await peer.recordedFailures() == [])
    }

    /// A body that answers GetDeviceInfo with no data phase at all, and gives no name in its answer to the init, gets
    /// the stand-in too, named for its maker, with Fuji GetDeviceInfo (0x902B) among its operations; the response
    /// after it is read in turn.
    @Test func aMissingDeviceInfoIsReplacedByFujifilmsOwn() async throws {
        let peer = try FujiScriptedPeer { peer in
            _ = try peer.readInit()
            try peer.acknowledge(name: "")
            try peer.respond(.ok, try peer.expectRequest(.openSession))
            try peer.respond(.ok, try peer.expectRequest(.getDeviceInfo))
            try peer.sendData([7, 0], .getDevicePropValue, try peer.expectRequest(.getDevicePropValue))
            peer.waitForClose()
        }
        let (_, session) = try await open(peer)
        #expect(session.deviceInfo.vendorExtensionID == 0x0E && session.deviceInfo.model == "Fujifilm camera")
        #expect(
            session.deviceInfo.supports(PTPOperationCode.fujiGetDeviceInfo)
                && session.deviceInfo.supports(.fujiCurrentState))
        #expect(try await session.transaction(.getDevicePropValue, parameters: [0xD001]).data == [7, 0])
        await session.close()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func aRefusedInitIsSentAgainOnTheSameConnection() async throws {
        let inits = Atomic(0)
        let peer = try FujiScriptedPeer { peer in
            _ = try peer.readInit()
            try peer.refuse(.unspecified)
            _ = try peer.readInit()
            inits.store(2, ordering: .relaxed)
            try peer.acknowledge(paddedTo: 40)
            try peer.openSession()
            peer.waitForClose()
        }
        let (_, session) = try await open(peer)
        await session.close()
        #expect(try await peer.recordedFailures() == [])
        #expect(inits.load(ordering: .relaxed) == 2)
    }

    @Test func aCameraThatRefusesTwiceSaysSo() async throws {
        let peer = try FujiScriptedPeer { peer in
            _ = try peer.readInit()
            try peer.refuse(.busy)
            _ = try peer.readInit()
            try peer.refuse(.busy)
            peer.waitForClose()
        }
        let error = await #expect(throws: ViewfinderError.self) {
            _ = try await FujiWiFiEndpoint(host: "127.0.0.1", configuration: peer.configuration()).openTransport()
        }
        #expect(error?.code == .deviceBusy)
        #expect(try await peer.recordedFailures() == [])
    }

    /// The camera closes the connection on an init of any length but 82: the client's is 82, and a camera that
    /// closes anyway gives a clear error.
    @Test func aCameraThatClosesOnTheInitGivesAClearError() async throws {
        let accepted = try FujiScriptedPeer { peer in
            guard try peer.readInit().count == 82 else { return }
            try peer.acknowledge()
            try peer.openSession()
            peer.waitForClose()
        }
        let (_, session) = try await open(accepted)
        await session.close()
        #expect(try await accepted.recordedFailures() == [])

        let closing = try FujiScriptedPeer { peer in
            _ = try peer.readInit()
            peer.command.socket.shutdown()
        }
        let error = await #expect(throws: ViewfinderError.self) {
            _ = try await FujiWiFiEndpoint(host: "127.0.0.1", configuration: closing.configuration()).openTransport()
        }
        #expect(error?.code == .disconnected)
        #expect(error?.message.contains("closed the connection on the init") == true, "\(error?.message ?? "")")
    }

    @Test func aCameraSilentAfterTheInitTimesOut() async throws {
        let answered = Atomic(false)
        let peer = try FujiScriptedPeer { peer in
            _ = try peer.readInit()
            peer.waitForClose()
            answered.store(true, ordering: .relaxed)
        }
        let error = await #expect(throws: ViewfinderError.self) {
            _ = try await FujiWiFiEndpoint(
                host: "127.0.0.1", configuration: peer.configuration(responseTimeout: .milliseconds(500))
            ).openTransport()
        }
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("did not answer the init") == true, "\(error?.message ?? "")")
        #expect(try await peer.recordedFailures() == [])
    }

    /// A camera that never opens its live view port: the open fails with a timeout that names the port, once the
    /// channel's deadline has passed, and the session goes on.
    @Test func aLiveViewPortNeverOpenedIsAClearTimeout() async throws {
        let peer = try FujiScriptedPeer { peer in
            try peer.accept()
            try peer.sendData([1, 0], .getDevicePropValue, try peer.expectRequest(.getDevicePropValue))
            peer.waitForClose()
        }
        let (transport, session) = try await open(peer)
        let error = await #expect(throws: ViewfinderError.self) { try await transport.openLiveView() }
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("did not open its live view port") == true, "\(error?.message ?? "")")
        let notOpen = await #expect(throws: ViewfinderError.self) { _ = try await transport.liveViewFrame() }
        #expect(notOpen?.code == .notConnected)
        #expect(try await session.transaction(.getDevicePropValue, parameters: [0x5001]).data == [1, 0])
        await session.close()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func aResponseWithTooManyParametersEndsTheSessionAsMalformed() async throws {
        let peer = try FujiScriptedPeer { peer in
            try peer.accept()
            let id = try peer.expectRequest(.getObject)
            try peer.respond(.ok, id, parameters: [1, 2, 3, 4, 5, 6])
            peer.waitForClose()
        }
        let (_, session) = try await open(peer)
        let error = await #expect(throws: ViewfinderError.self) { _ = try await session.transaction(.getObject) }
        #expect(error?.code == .malformedData)
        await session.close()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func aLiveViewFrameThatIsNotAJPEGOrTooLongIsMalformed() async throws {
        let peer = try FujiScriptedPeer { peer in
            try peer.accept()
            try peer.acceptLiveView()
            try peer.sendFrame([0, 1, 2, 3])
            try peer.sendFrame([0xFF, 0xD8], claiming: 1 << 30)
            peer.waitForClose()
        }
        var configuration = peer.configuration()
        configuration.maximumLiveViewFrameLength = 1 << 10
        let (transport, session) = try await open(peer, configuration: configuration)
        try await transport.openLiveView()
        let notJPEG = await #expect(throws: ViewfinderError.self) { _ = try await transport.liveViewFrame() }
        #expect(notJPEG?.code == .malformedData)
        #expect(notJPEG?.message.contains("does not hold a JPEG") == true, "\(notJPEG?.message ?? "")")
        let tooLong = await #expect(throws: ViewfinderError.self) { _ = try await transport.liveViewFrame() }
        #expect(tooLong?.code == .malformedData)
        #expect(tooLong?.message.contains("\(1 << 30) bytes") == true, "\(tooLong?.message ?? "")")
        await session.close()
        #expect(try await peer.recordedFailures() == [])
    }

    @Test func discoveryReachesFujifilmCamerasOverTheirOwnProtocol() async throws {
        let discovery = CameraDiscovery(connectors: [FujiWiFiCameraConnector(), PTPIPCameraConnector()])
        let camera = try await discovery.manualDiscovery.discover(
            .cameraType(.fujifilm, atAddress: "127.0.0.1", port: 50000))
        let endpoint = try #require((camera as? PTPCamera)?.endpoint as? FujiWiFiEndpoint)
        #expect(endpoint.configuration.commandPort == 50000)
        #expect(endpoint.configuration.eventPort == 50001 && endpoint.configuration.liveViewPort == 50002)
        let nikon = try await discovery.manualDiscovery.discover(.cameraType(.nikon, atAddress: "127.0.0.1"))
        #expect((nikon as? PTPCamera)?.endpoint is PTPIPEndpoint)
    }
}
