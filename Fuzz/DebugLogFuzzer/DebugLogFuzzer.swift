import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSimulator

/// Fuzzes the reader of gphoto2 debug logs (`RecordedCamera`): the input is a log's text, as a user hands one to
/// `viewfinder simulate --replay`, read through every shape it takes (hexdumps of USB containers and PTP/IP packets,
/// responses stated in words, DeviceInfo listings, `--summary` property and storage summaries).
///
/// Besides crashes, it checks what must hold: the reader fails only with `malformedData`; what it accepts has a
/// DeviceInfo that encodes and decodes to itself, and no transaction whose data is larger than the log could hold;
/// the replay of what it read answers every recorded request with its recorded data.
@main enum DebugLogFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    static func fuzz(_ input: [UInt8]) {
        let recording: RecordedCamera
        do {
            recording = try RecordedCamera(gphotoDebugLog: String(decoding: input, as: UTF8.self))
        } catch {
            precondition(error.code == .malformedData, "the reader failed with \(error)")
            return
        }
        if let bytes = try? recording.deviceInfo.encoded() {
            precondition((try? PTPDeviceInfo(decoding: bytes)) == recording.deviceInfo, "DeviceInfo round trip")
        }
        for transaction in recording.transactions {
            // A hexdump line holds 16 bytes in 70 characters; a summary's value a few bytes in as many characters.
            precondition(
                (transaction.dataIn?.count ?? 0) <= 8 * input.count + 64,
                "\(transaction.dataIn?.count ?? 0) bytes of data from a log of \(input.count)")
        }
        guard let simulator = try? CameraSimulator(replaying: recording) else { return }
        for transaction in recording.transactions where transaction.parameters != nil {
            let (code, _) = simulator.answer(transaction.operation, parameters: transaction.parameters ?? [])
            precondition(code != .operationNotSupported, "a recorded \(transaction.operation) was refused")
        }
    }
}
