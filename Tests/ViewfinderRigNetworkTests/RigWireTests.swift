import Testing

@testable import ViewfinderRigNetwork

/// The rig's messages: what is taken, and what is refused with a reason.
@Suite struct RigWireTests {
    @Test func aCommandRoundTripsInSnakeCase() throws {
        let command = RigWire.Command(op: "fire", id: "c1-7", atNs: 1_700_000_000_123_456_789, take: "t1")
        let bytes = RigWire.encode(command)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"at_ns\":1700000000123456789"), "\(text)")
        #expect(try RigWire.decode(RigWire.Command.self, from: bytes) == command)
    }
}
