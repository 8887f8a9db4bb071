import Foundation
import Viewfinder
import ViewfinderSystem

/// One camera's outcome of a rig command, as printed and as JSON.
struct RigOutcomeRecord: Encodable {
    /// The camera's name in the rig.
    var camera: String
    /// Where it is: the camera's address, or the host of a rig of many hosts.
    var address: String
    /// Whether its part succeeded.
    var ok: Bool
    /// What went wrong, when something did.
    var error: String?
    /// The error's code, such as "timeout" or "notConnected".
    var errorCode: String?
    /// How long its part took, in milliseconds.
    var milliseconds: Double
    /// What it did, when it succeeded: "connected Nikon D7500 (serial 1234)", "took DSC_0001.JPG".
    var detail: String?
    /// The files it saved.
    var files: [String]?

    init<Success>(
        _ outcome: RigReport<Success>.Outcome, address: (any CustomStringConvertible)?,
        detail: (Success) -> String? = { _ in nil },
        files: (Success) -> [String]? = { _ in nil }
    ) {
        camera = outcome.camera
        self.address = address?.description ?? "?"
        milliseconds = outcome.duration.inSeconds * 1000
        switch outcome.result {
        case .success(let value):
            ok = true
            self.detail = detail(value)
            self.files = files(value)
        case .failure(let failure):
            ok = false
            error = failure.message
            errorCode = failure.code.description
        }
    }

    /// The record's line: name, address, what happened and how long it took.
    var line: String {
        let what = ok ? (detail ?? "ok") : "failed: \(error ?? "unknown error")"
        let time = milliseconds < 10 ? String(format: "%.1f ms", milliseconds) : String(format: "%.0f ms", milliseconds)
        return "\(camera)  \(address)  \(what)  (\(time))"
    }

    /// Prints `records` as lines or JSON, then fails with exit status 69 when any camera failed.
    ///
    /// - Throws: ``CommandFailure`` naming how many cameras failed.
    static func finish(_ records: [RigOutcomeRecord], json: Bool, summary: String? = nil) throws {
        if json {
            try Console.printJSON(records)
        } else {
            for record in records { Console.print(record.line) }
            if let summary { Console.print(summary) }
        }
        let failed = records.filter { !$0.ok }
        guard failed.isEmpty else {
            throw CommandFailure(
                "\(failed.count) of \(records.count) cameras failed: "
                    + failed.map(\.camera).joined(separator: ", "),
                exitStatus: ExitStatus.unavailable)
        }
    }
}
