import Foundation
import Viewfinder

/// Writes the tool's output: results to standard output, errors and progress to standard error.
enum Console {
    /// Whether standard output is a terminal, so progress can be drawn in place.
    static let isTerminal = isatty(STDOUT_FILENO) == 1
    /// Whether standard error is a terminal.
    static let isErrorTerminal = isatty(STDERR_FILENO) == 1

    /// Prints a line of output.
    static func print(_ line: String) {
        write(printable(line) + "\n", to: STDOUT_FILENO)
    }

    /// Prints a line to standard error.
    static func printToError(_ line: String) {
        write(printable(line) + "\n", to: STDERR_FILENO)
    }

    /// Text with its control characters, other than newlines and tabs, written as escapes such as `\u{1B}`: names
    /// that cameras and devices report cannot move the cursor or recolour the terminal.
    static func printable(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar != "\n" && scalar != "\t" && scalar.properties.generalCategory == .control
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += scalar.escaped(asASCII: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Prints a failure with a hint of what to try.
    static func printError(_ error: any Error) {
        var text = "viewfinder: error: "
        switch error {
        case let error as UsageError:
            text += error.description
        case let error as CommandFailure:
            text += error.message
            if let hint = error.hint { text += "\n\(hint)" }
        case let error as ViewfinderError:
            text += error.description
            if let hint = hint(for: error) { text += "\n\(hint)" }
        default:
            text += String(describing: error)
        }
        printToError(text)
    }

    /// Prints a value as pretty-printed JSON with sorted keys.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self))
    }

    /// Prints a value as JSON on one line, for streams of records that scripts read line by line.
    static func printJSONLine(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// The time, to the millisecond, in UTC as ISO 8601, for the records of commands that print as things happen.
    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }

    /// Prints rows as columns, each as wide as its widest cell.
    static func printTable(header: [String], rows: [[String]]) {
        let widths = header.indices.map { column in
            ([header] + rows).map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        print(line(header))
        for row in rows { print(line(row)) }
    }

    private static func hint(for error: ViewfinderError) -> String? {
        switch error.code {
        case .connectionFailed, .notConnected:
            "Check that the camera is on and reachable; 'viewfinder discover' looks for it."
        case .timeout:
            "The camera or device did not answer in time; check the connection and try again."
        case .permissionDenied:
            "Run as a user with access to the device (for V4L2 devices, usually the 'video' group)."
        case .deviceBusy:
            "Another program is using the device; close it and try again."
        default:
            nil
        }
    }

    /// Writes text to a file descriptor as it is, without adding a newline.
    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
