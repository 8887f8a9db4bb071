import Foundation
import Viewfinder

/// Reads barcodes from a frame source through a context and prints each new code until enough are found, the time
/// runs out, the source fails, or Ctrl-C.
struct StreamScanner {
    let settings: BarcodeCaptureSettings
    let count: Int
    let json: Bool

    private enum Event: Sendable {
        case codes([Barcode])
        case timedOut
        case interrupted
        case failed(String)
    }

    /// Starts the source with `start`, prints codes, and stops it with `stop`.
    func scan(
        _ source: any FrameSource, timeout: Double, what: String, start: () async throws -> Void,
        stop: () async -> Void
    ) async throws {
        let context = DataCaptureContext()
        let capture = BarcodeCapture(context: context, settings: settings)
        // Codes wait here only while the printing task is behind; a bound keeps a flood of codes from growing it.
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingOldest(256))
        let token = capture.addListener { continuation.yield(.codes($0.newlyRecognizedBarcodes)) }
        let sourceToken = source.addStateListener { change in
            if let error = change.error, change.state == .off {
                continuation.yield(.failed("\(error)"))
            }
        }
        defer {
            token.cancel()
            sourceToken.cancel()
        }
        await context.setFrameSource(source)
        Interrupt.beginHandling()
        try await start()
        let waits = Task {
            if timeout > 0 {
                try? await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
                continuation.yield(.timedOut)
            }
        }
        let interrupts = Task {
            await Interrupt.wait()
            continuation.yield(.interrupted)
        }
        defer {
            waits.cancel()
            interrupts.cancel()
        }
        var printed = 0
        var ending: Event?
        loop: for await event in events {
            switch event {
            case .codes(let codes):
                for code in codes {
                    if json {
                        try Console.printJSONLine(ScanCommand.CodeRecord(code))
                    } else {
                        Console.print("\(code.symbology)\t\(code.text ?? ScanCommand.hex(code))")
                    }
                    printed += 1
                    if count > 0, printed >= count { break loop }
                }
            case .timedOut, .interrupted, .failed:
                ending = event
                break loop
            }
        }
        await stop()
        await context.setFrameSource(nil)
        switch ending {
        case .timedOut:
            throw CommandFailure(
                "\(printed == 0 ? "no barcode" : "only \(printed) of \(count) codes") read from \(what) in \(timeout) s",
                hint: "Hold the code steady and well lit, closer to the camera, or allow longer with --timeout.",
                exitStatus: ExitStatus.timeout)
        case .interrupted:
            if count > 0 {
                throw CommandFailure(
                    "interrupted after \(printed) of \(count) codes", exitStatus: ExitStatus.interrupted)
            }
        case .failed(let reason):
            throw CommandFailure(
                "reading from \(what) stopped after \(printed) codes: \(reason)", exitStatus: ExitStatus.unavailable)
        case .codes, nil:
            break
        }
    }
}
