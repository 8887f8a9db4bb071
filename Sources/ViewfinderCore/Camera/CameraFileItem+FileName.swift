extension CameraFileItem {
    /// Whether `name` names a file in a folder and nothing else: not empty, `.` or `..`, and without `/` or control
    /// characters.
    ///
    /// ```swift
    /// CameraFileItem.isPlainFileName("DSC_0042.JPG")  // true
    /// CameraFileItem.isPlainFileName("../DSC_0042.JPG")  // false
    /// ```
    public static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/")
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The file's name made safe to join to a folder on this machine: the name itself when it is plain
    /// (``isPlainFileName(_:)``); otherwise the name with each `/` and control character as `_` and without leading
    /// dots, or `file-` and the file's identifier when nothing is left.
    ///
    /// A name from a camera, which any device on the network may pretend to be, cannot then leave the folder:
    /// `../../etc/passwd` becomes `_.._etc_passwd`.
    ///
    /// ```swift
    /// try await camera.download(item, toFile: "/home/me/Pictures/\(item.safeFileName)")
    /// ```
    public var safeFileName: String {
        guard !Self.isPlainFileName(name) else { return name }
        var safe = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { $0 == "/" || $0.properties.generalCategory == .control ? "_" : $0 }))
        while safe.hasPrefix(".") { safe.removeFirst() }
        return safe.isEmpty ? "file-\(id)" : safe
    }
}
