import Testing
import ViewfinderSystem

@Suite struct HostPortTests {
    @Test func anIPv6AddressIsBracketedBeforeItsPort() {
        #expect(HostPort.text("fe80::1", port: 15740) == "[fe80::1]:15740")
        #expect(HostPort.text("fe80::1%eth0", port: UInt16(80)) == "[fe80::1%eth0]:80")
        #expect(HostPort.bracketed("::1") == "[::1]")
    }

    @Test func aNameOrIPv4AddressStandsAsItIs() {
        #expect(HostPort.text("192.168.1.1", port: 15740) == "192.168.1.1:15740")
        #expect(HostPort.text("camera.local", port: 80) == "camera.local:80")
        #expect(HostPort.bracketed("192.168.1.1") == "192.168.1.1")
    }
}
