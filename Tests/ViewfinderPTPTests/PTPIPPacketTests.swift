import Testing
import ViewfinderCore

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

@Suite struct PTPIPPacketTests {
    static let guid = try! PTPIPGUID(bytes: Array(0..<16))

    static let allPackets: [PTPIPPacket] = [
        .initCommandRequest(guid: guid, name: "Viewfinder Ünïcode 📷", version: PTPIPPacket.protocolVersion),
        .initCommandAck(connectionNumber: 7, guid: guid, name: "D7500", version: 0x0001_0000),
        .initEventRequest(connectionNumber: 7),
        .initEventAck,
        .initFail(reason: 0x0000_0003),
        .operationRequest(dataPhase: .noDataOrDataIn, code: .openSession, transactionID: 0, parameters: [1]),
        .operationRequest(
            dataPhase: .dataOut, code: .setDevicePropValue, transactionID: 9, parameters: [1, 2, 3, 4, 5]),
        .operationResponse(code: .ok, transactionID: 9, parameters: []),
        .operationResponse(code: .invalidDevicePropValue, transactionID: 10, parameters: [0xFFFF_FFFF]),
        .event(code: .objectAdded, transactionID: 0xFFFF_FFFF, parameters: [0x0001_0002]),
        .event(code: .captureComplete, transactionID: 12, parameters: [1, 2, 3]),
        .startData(transactionID: 3, totalLength: 50_000_000),
        .startData(transactionID: 3, totalLength: .max),
        .data(transactionID: 3, payload: Array(repeating: 0xAB, count: 1000)),
        .cancel(transactionID: 3),
        .endData(transactionID: 3, payload: []),
        .endData(transactionID: 3, payload: [1, 2, 3]),
        .probeRequest,
        .probeResponse,
    ]

    @Test(arguments: allPackets)
    func roundTrips(_ packet: PTPIPPacket) throws {
        let bytes = try packet.encoded()
        #expect(bytes.count >= PTPIPPacket.headerLength)
        let length = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        #expect(Int(length) == bytes.count)
        #expect(UInt32(bytes[4]) == packet.type.rawValue)
        #expect(try PTPIPPacket.decode(bytes) == packet)
    }

    @Test func operationRequestHasTheDocumentedLayout() throws {
        let bytes = try PTPIPPacket.operationRequest(
            dataPhase: .noDataOrDataIn, code: .getObject, transactionID: 0x0102_0304, parameters: [0xAABB_CCDD]
        ).encoded()
        #expect(
            bytes == [
                22, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0, 0x09, 0x10, 0x04, 0x03, 0x02, 0x01, 0xDD, 0xCC, 0xBB, 0xAA,
            ])
    }

    @Test func initCommandRequestCarriesANulTerminatedUCS2Name() throws {
        let bytes = try PTPIPPacket.initCommandRequest(guid: Self.guid, name: "ab", version: 0x0001_0000).encoded()
        #expect(bytes.count == 8 + 16 + 6 + 4)
        #expect(Array(bytes[24..<30]) == [0x61, 0, 0x62, 0, 0, 0])
        #expect(Array(bytes[30..<34]) == [0, 0, 1, 0])
    }

    @Test(arguments: allPackets)
    func everyTruncationIsRejected(_ packet: PTPIPPacket) throws {
        let bytes = try packet.encoded()
        for cut in 0..<bytes.count {
            var truncated = Array(bytes[..<cut])
            if truncated.count >= 4 {
                // Keep the length word honest so the payload parser itself must notice.
                let length = UInt32(truncated.count).littleEndian
                withUnsafeBytes(of: length) { truncated.replaceSubrange(0..<4, with: $0) }
            }
            if let decoded = try? PTPIPPacket.decode(truncated), !Self.isShorterForm(decoded, of: packet) {
                Issue.record("\(packet) cut to \(cut) bytes decoded as \(decoded)")
            }
        }
    }

    /// Whether `shorter` is `packet` with fewer parameters or payload bytes, which a cut may legitimately give.
    static func isShorterForm(_ shorter: PTPIPPacket, of packet: PTPIPPacket) -> Bool {
        switch (shorter, packet) {
        case (.operationRequest(let p1, let c1, let t1, let a1), .operationRequest(let p2, let c2, let t2, let a2)):
            return p1 == p2 && c1 == c2 && t1 == t2 && a2.starts(with: a1)
        case (.operationResponse(let c1, let t1, let a1), .operationResponse(let c2, let t2, let a2)):
            return c1 == c2 && t1 == t2 && a2.starts(with: a1)
        case (.event(let c1, let t1, let a1), .event(let c2, let t2, let a2)):
            return c1 == c2 && t1 == t2 && a2.starts(with: a1)
        case (.data(let t1, let b1), .data(let t2, let b2)), (.endData(let t1, let b1), .endData(let t2, let b2)):
            return t1 == t2 && b2.starts(with: b1)
        default:
            return false
        }
    }

    @Test func lengthWordMustMatch() throws {
        var bytes = try PTPIPPacket.initEventAck.encoded()
        bytes[0] = 9
        #expect(throws: ViewfinderError.self) { try PTPIPPacket.decode(bytes) }
        #expect(malformed { try PTPIPPacket.decode(bytes) })
    }

    @Test func unknownTypeIsMalformed() {
        #expect(malformed { try PTPIPPacket.decode([8, 0, 0, 0, 99, 0, 0, 0]) })
        #expect(malformed { try PTPIPPacket.decode(type: PTPIPPacketType(rawValue: 0), payload: []) })
    }

    @Test func extraBytesAreMalformed() {
        #expect(malformed { try PTPIPPacket.decode(type: .initEventAck, payload: [0]) })
        #expect(malformed { try PTPIPPacket.decode(type: .cancel, payload: [1, 0, 0, 0, 5]) })
    }

    @Test func tooManyParametersAreRejected() {
        let sixParameters = [UInt8](repeating: 0, count: 4 + 2 + 4 + 24)
        #expect(malformed { try PTPIPPacket.decode(type: .operationRequest, payload: sixParameters) })
        let fourEventParameters = [UInt8](repeating: 0, count: 2 + 4 + 16)
        #expect(malformed { try PTPIPPacket.decode(type: .event, payload: fourEventParameters) })
        #expect(throws: ViewfinderError.self) {
            try PTPIPPacket.event(code: .objectAdded, transactionID: 0, parameters: [1, 2, 3, 4]).encoded()
        }
        let ragged = [UInt8](repeating: 0, count: 2 + 4 + 3)
        #expect(malformed { try PTPIPPacket.decode(type: .operationResponse, payload: ragged) })
    }

    @Test func friendlyNamesHaveAtMostTheMaximumLength() throws {
        func request(units: Int) -> [UInt8] {
            [UInt8](repeating: 1, count: 16) + [UInt8](repeating: 0x41, count: 2 * units) + [0, 0, 0, 0, 1, 0]
        }
        let longest = try PTPIPPacket.decode(type: .initCommandRequest, payload: request(units: 1024))
        guard case .initCommandRequest(_, let name, _) = longest else {
            Issue.record("not an InitCommandRequest: \(longest)")
            return
        }
        #expect(name.utf16.count == PTPIPPacket.maximumNameLength)
        #expect(malformed { try PTPIPPacket.decode(type: .initCommandRequest, payload: request(units: 1025)) })
        #expect(throws: ViewfinderError.self) {
            try PTPIPPacket.initCommandRequest(guid: .random(), name: String(repeating: "n", count: 1025), version: 1)
                .encoded()
        }
    }

    @Test func nameWithoutTerminatorIsMalformed() {
        var payload = [UInt8](repeating: 1, count: 16)
        payload += [0x41, 0, 0x42, 0, 1, 0, 0, 0]
        #expect(malformed { try PTPIPPacket.decode(type: .initCommandRequest, payload: payload) })
    }

    @Test func guidNeedsSixteenBytes() {
        #expect(throws: ViewfinderError.self) { try PTPIPGUID(bytes: [1, 2, 3]) }
        #expect(PTPIPGUID.random() != PTPIPGUID.random())
        #expect(PTPIPGUID(high: 0x0001_0203_0405_0607, low: 0x0809_0A0B_0C0D_0E0F) == Self.guid)
        #expect(PTPIPGUID.zero.bytes == Array(repeating: 0, count: 16))
    }
}

/// Whether `body` throws a ``ViewfinderError`` with the code `.malformedData`.
func malformed(_ body: () throws -> Any) -> Bool {
    do {
        _ = try body()
        return false
    } catch let error as ViewfinderError {
        return error.code == .malformedData
    } catch {
        return false
    }
}
