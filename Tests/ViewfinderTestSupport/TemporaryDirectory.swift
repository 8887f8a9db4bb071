import Foundation

/// A directory of its own under the system's temporary directory, removed with everything in it when released.
public final class TemporaryDirectory {
    /// The directory's path.
    public let path = NSTemporaryDirectory() + "/viewfinder-test-\(UUID().uuidString)"

    /// Makes the directory.
    public init() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` to the file `name` in the directory.
    public func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
    }

    /// The text of the file `name` in the directory.
    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }
}
