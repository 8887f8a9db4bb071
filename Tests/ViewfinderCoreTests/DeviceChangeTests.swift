import Testing
import ViewfinderCore

@Suite struct DeviceChangeTests {
    @Test func aChangeNamesTheDeviceThatCameOrWent() {
        let changes: [DeviceChange<String>] = [.attached("usb:1:4"), .detached("usb:1:4"), .attached("/dev/video0")]
        #expect(changes.map(\.device) == ["usb:1:4", "usb:1:4", "/dev/video0"])
        #expect(changes[0] != changes[1])
        #expect(Set(changes).count == 3)
    }
}
