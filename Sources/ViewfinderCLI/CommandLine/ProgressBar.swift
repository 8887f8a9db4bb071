import Foundation

/// Shows how far long work has come: a bar redrawn in place on a terminal, a plain line every quarter otherwise.
///
/// Progress goes to standard error so that standard output stays data.
final class ProgressBar {
    private let title: String
    private var total: Int64
    private let unit: Unit
    private let start = Date()
    private var lastQuarter = -1
    private var lastDraw = Date.distantPast
    private var finished = false

    /// How amounts are shown.
    enum Unit {
        /// Bytes, shown as KB and MB with a rate.
        case bytes
        /// A count of things, such as frames.
        case items(String)
    }

    /// Creates a bar for work of `total` units.
    init(title: String, total: Int64, unit: Unit = .bytes) {
        self.title = title
        self.total = max(total, 1)
        self.unit = unit
    }

    /// Shows that `done` units of the total are done; `total` replaces the total when the work learns it late, as a
    /// download of a file whose size the camera gives only as it sends it.
    func update(_ done: Int64, total newTotal: Int64? = nil) {
        guard !finished else { return }
        if let newTotal { total = max(newTotal, 1) }
        let fraction = min(max(Double(done) / Double(total), 0), 1)
        if Console.isErrorTerminal {
            let now = Date()
            guard done >= total || now.timeIntervalSince(lastDraw) >= 0.05 else { return }
            lastDraw = now
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            let percent = Int(fraction * 100)
            Console.write("\r\(title) [\(bar)] \(String(format: "%3d", percent))% \(amount(done))", to: STDERR_FILENO)
        } else {
            let quarter = Int(fraction * 4)
            guard quarter > lastQuarter else { return }
            lastQuarter = quarter
            Console.printToError("\(title): \(quarter * 25)% \(amount(done))")
        }
    }

    /// Ends the bar, moving to a new line on a terminal.
    func finish() {
        guard !finished else { return }
        update(total)
        finished = true
        if Console.isErrorTerminal {
            Console.write("\n", to: STDERR_FILENO)
        }
    }

    private func amount(_ done: Int64) -> String {
        switch unit {
        case .bytes:
            let seconds = max(Date().timeIntervalSince(start), 0.001)
            return "\(Self.bytes(done)) of \(Self.bytes(total)), \(Self.bytes(Int64(Double(done) / seconds)))/s"
        case .items(let name):
            return "\(done)/\(total) \(name)"
        }
    }

    /// A byte count for people, such as `1.5 MB`.
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if value >= 1_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
        if value >= 1_000 { return String(format: "%.1f kB", value / 1_000) }
        return "\(count) B"
    }
}
