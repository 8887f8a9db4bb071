import ViewfinderCore

/// One camera of a ``CameraRig``, with the name that tells it apart in reports and file names.
public struct RigMember: Sendable {
    /// The camera's name in the rig, such as "left" or "cam07": it starts the names of the pictures it takes.
    public let name: String
    /// The camera.
    public let camera: any Camera

    /// Creates a member.
    ///
    /// - Parameters:
    ///   - name: Letters, digits, `-`, `_` and `.`, not starting with `.`; it becomes part of file names.
    ///   - camera: The camera, connected or not.
    public init(name: String, camera: any Camera) {
        self.name = name
        self.camera = camera
    }

    /// Whether `name` can name a member: non-empty, at most 64 characters of letters, digits, `-`, `_` and `.`, not
    /// starting with `.`.
    static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64, !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_.".unicodeScalars.contains(scalar))
        }
    }
}
