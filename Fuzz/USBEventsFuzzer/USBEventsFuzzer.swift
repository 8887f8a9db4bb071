import FuzzSupport
import ViewfinderPTP
import ViewfinderPTPUSB

/// Fuzzes the reassembly of events from a USB camera's interrupt pipe (`PTPUSBEventAssembler`): the input is a
/// selector byte for the pipe's packet size (8, 16, 24, 64 or 512 bytes), then transfers, each after its two-byte
/// length (cut to a packet), or a length of `0xFFFF` for time passing beyond the wait for a container's rest.
///
/// Besides crashes, it checks what must hold: the assembler never holds more than its maximum; every event it passes
/// on has at most three parameters and is what a container of that event, sent alone, gives; it passes on no more
/// events than the bytes it was given can hold.
@main enum USBEventsFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    static let packetSizes = [8, 16, 24, 64, 512]

    static func fuzz(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let packet = packetSizes[Int(selector) % packetSizes.count]
        var assembler = PTPUSBEventAssembler()
        var now = ContinuousClock.now
        var offset = 1
        var fed = 0
        var events = 0
        while offset + 2 <= input.count {
            let length = Int(input[offset]) | Int(input[offset + 1]) << 8
            offset += 2
            guard length != 0xFFFF else {
                now += PTPUSBEventAssembler.continuationTimeout + .milliseconds(1)
                continue
            }
            let end = min(offset + min(length, packet), input.count)
            let transfer = Array(input[offset..<end])
            offset = end
            fed += transfer.count
            let output = transfer.withUnsafeBytes { assembler.take($0, at: now) }
            precondition(
                assembler.pendingCount <= PTPUSBEventAssembler.maximumLength,
                "the assembler holds \(assembler.pendingCount) bytes")
            for event in output.events { check(event) }
            events += output.events.count
            precondition(events * 12 <= fed, "\(events) events from \(fed) bytes")
        }
    }

    /// Checks that `event` is what a container holding it gives, sent in one transfer.
    static func check(_ event: PTPEvent) {
        precondition(event.parameters.count <= 3, "an event with \(event.parameters.count) parameters")
        var container: [UInt8] = []
        func append<Value: FixedWidthInteger>(_ value: Value) {
            withUnsafeBytes(of: value.littleEndian) { container.append(contentsOf: $0) }
        }
        append(UInt32(12 + 4 * event.parameters.count))
        append(UInt16(4))
        append(event.code.rawValue)
        append(event.transactionID)
        for parameter in event.parameters { append(parameter) }
        var fresh = PTPUSBEventAssembler()
        let again = container.withUnsafeBytes { fresh.take($0, at: .now) }
        precondition(again.events == [event] && again.junk == 0, "\(event) does not survive a round trip")
    }
}
