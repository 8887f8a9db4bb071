import Testing
import ViewfinderCore

@testable import ViewfinderPTPUSB

/// The containers PTP sends over USB: requests out, responses and events in, and what a bad header gets.
@Suite struct PTPUSBContainerTests {
    @Test func aRequestIsItsHeaderThenItsParameters() {
        let bytes = PTPUSBContainer.encode(.command, code: 0x1009, transactionID: 7, parameters: [0x1234_5678])
        #expect(bytes == [16, 0, 0, 0, 1, 0, 0x09, 0x10, 7, 0, 0, 0, 0x78, 0x56, 0x34, 0x12])
    }

    @Test func aResponseDecodesWithItsParameters() throws {
        let bytes: [UInt8] = [20, 0, 0, 0, 3, 0, 0x01, 0x20, 9, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]
        try bytes.withUnsafeBytes { raw in
            let header = try PTPUSBContainer(decoding: raw)
            #expect(header.kind == .response && header.code == 0x2001 && header.transactionID == 9)
            #expect(try header.parameters(in: raw) == [1, 2])
        }
    }

    @Test func badHeadersAreClearErrors() {
        func error(_ bytes: [UInt8]) -> String? {
            bytes.withUnsafeBytes { raw -> String? in
                do throws(ViewfinderError) {
                    let header = try PTPUSBContainer(decoding: raw)
                    _ = try header.parameters(in: raw)
                    return nil
                } catch {
                    #expect(error.code == .malformedData)
                    return error.message
                }
            }
        }
        #expect(error([1, 2, 3])?.contains("shorter than a PTP header") == true)
        #expect(error([12, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0])?.contains("unknown type 9") == true)
        #expect(error([8, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0])?.contains("shorter than its header") == true)
        // Six parameters, one more than PTP allows.
        #expect(error([36, 0, 0, 0, 3, 0, 1, 0x20, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 24)) != nil)
        // A length that promises parameters the transfer does not hold.
        #expect(error([20, 0, 0, 0, 3, 0, 1, 0x20, 0, 0, 0, 0, 1, 0, 0, 0]) != nil)
    }

    @Test func aDeviceStatusNamesTheHaltedEndpointsIn32Or16Bits() throws {
        func status(_ bytes: [UInt8]) throws -> PTPUSBTransport.DeviceStatus {
            try bytes.withUnsafeBytes { raw throws(ViewfinderError) in try PTPUSBTransport.DeviceStatus(decoding: raw) }
        }
        #expect(try status([4, 0, 0x01, 0x20]) == PTPUSBTransport.DeviceStatus(code: .ok))
        let wide = try status([12, 0, 0x1F, 0x20, 0x81, 0, 0, 0, 0x02, 0, 0, 0])
        #expect(wide == PTPUSBTransport.DeviceStatus(code: .transactionCancelled, haltedEndpoints: [0x81, 0x02]))
        let narrow = try status([8, 0, 0x1F, 0x20, 0x81, 0, 0x02, 0])
        #expect(narrow == wide)
        // The length says how much counts, within what came.
        #expect(try status([6, 0, 0x19, 0x20, 0x81, 0, 0x02, 0]).haltedEndpoints == [0x81])
        #expect(try status([40, 0, 0x19, 0x20, 0x83, 0]).haltedEndpoints == [0x83])
        #expect(throws: ViewfinderError.self) { try status([4, 0, 1]) }
    }
}
