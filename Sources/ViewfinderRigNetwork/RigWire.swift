import Foundation
import ViewfinderCore

/// The messages agents and coordinators exchange, as JSON with snake_case keys (see <doc:RigMessageFormat>).
///
/// Every message carries the format's version in `v`; decoding refuses a message that is too long, not JSON, of
/// another version, or whose names and identifiers are not what the format allows, with a sentence for the log.
enum RigWire {
    /// The version of the format this code speaks.
    static let version = 1
    /// The longest message either side reads: a reply lists up to a few hundred files.
    static let maximumMessageSize = 256 * 1024
    /// The most cameras one host's record or reply may list.
    static let maximumCameras = 1000
    /// The most files one camera's outcome may list.
    static let maximumFilesPerCamera = 16

    /// A host's presence: retained on its state topic, online while its agent runs, and "offline" as its last will.
    struct HostState: Codable, Sendable, Equatable {
        var v = RigWire.version
        var host: String
        var online: Bool
        /// A new identifier for each connection of the agent.
        var session: String?
        /// The agent's program and version, such as "viewfinder 0.1.0".
        var agent: String?
        var cameras: [Camera]?
        var clock: Clock?
        var files: Files?
        /// The agent's keep-alive with the broker, in seconds.
        var keepaliveSeconds: Int?
    }

    /// One camera of a host.
    struct Camera: Codable, Sendable, Equatable {
        var name: String
        var manufacturer: String?
        var model: String?
        var serial: String?
        var connected: Bool
    }

    /// What a host says of its clock.
    struct Clock: Codable, Sendable, Equatable {
        /// "chrony", "ptp", "ntp", or "none".
        var source: String
        var synchronized: Bool
        var offsetMicroseconds: Int64?
        var estimatedErrorMicroseconds: Int64?
        var maximumErrorMicroseconds: Int64?
    }

    /// Where a host serves its pictures.
    struct Files: Codable, Sendable, Equatable {
        /// The base URL, such as "http://10.0.0.5:41523/".
        var url: String
        /// The token the server asks for, in an `X-Viewfinder-Token` field.
        var token: String
    }

    /// A command to the hosts: published on the rig's command topic, with a Response Topic and Correlation Data.
    struct Command: Codable, Sendable, Equatable {
        var v = RigWire.version
        /// "ping", "arm", "set", "fire" or "collect".
        var op: String
        /// The command's identifier: a host applies a command once, however often it arrives.
        var id: String
        /// The hosts that act on it; every host when absent.
        var hosts: [String]?
        /// ping: when the coordinator sent it (CLOCK_REALTIME, nanoseconds).
        var sentNs: Int64?
        /// fire: when the shutters go (CLOCK_REALTIME, nanoseconds).
        var atNs: Int64?
        /// fire and collect: the take.
        var take: String?
        /// fire: whether each camera's picture is downloaded to the host and listed in the reply.
        var download: Bool?
        /// fire: whether the cameras focus first.
        var autofocus: Bool?
        /// set: the property's name and its value, as `viewfinder camera set` writes them.
        var property: String?
        var value: String?
        /// How long each camera may take, in milliseconds.
        var timeoutMs: Int?
    }

    /// One host's answer to a command, on the command's Response Topic with its Correlation Data.
    struct Reply: Codable, Sendable, Equatable {
        var v = RigWire.version
        var id: String
        var op: String
        var host: String
        /// "ok", "late" (a fire that came after its time, not executed), "busy", or "error".
        var status: String
        var message: String?
        /// When the host received the command and when it sent this answer (its CLOCK_REALTIME, nanoseconds).
        var receivedNs: Int64
        var sentNs: Int64
        var cameras: [CameraOutcome]?
    }

    /// One camera's part in a reply.
    struct CameraOutcome: Codable, Sendable, Equatable {
        var camera: String
        var ok: Bool
        var error: String?
        var errorCode: String?
        var durationMs: Double
        /// fire: when the shutter request went to the camera and when the camera reported the picture taken.
        var requestedNs: Int64?
        var completedNs: Int64?
        /// set: the value the camera shows afterwards.
        var value: String?
        /// fire with download, and collect: the picture's files on the host.
        var files: [File]?
    }

    /// One file a host keeps: fetch `url` with the host's token.
    struct File: Codable, Sendable, Equatable {
        var name: String
        var size: UInt64
        var sha256: String
        var url: String
    }

    /// The operations a command may ask for.
    static let operations: Set<String> = ["ping", "arm", "set", "fire", "collect"]

    /// Encodes `value` as the format writes it.
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map(Array.init) ?? []
    }

    /// Decodes a message, checking its size, its version and its names.
    ///
    /// - Throws: ``Refusal`` saying why the message is refused.
    static func decode<Message: Decodable & Checked>(_ type: Message.Type, from bytes: [UInt8]) throws(Refusal)
        -> Message
    {
        guard bytes.count <= maximumMessageSize else {
            throw Refusal("it holds \(bytes.count) bytes, more than the \(maximumMessageSize) taken")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let data = Data(bytes)
        guard let versioned = try? decoder.decode(Versioned.self, from: data) else {
            throw Refusal("it is not a JSON object")
        }
        guard versioned.v == version else {
            throw Refusal("it is of format version \(versioned.v.map(String.init) ?? "none"), not \(version)")
        }
        let message: Message
        do {
            message = try decoder.decode(Message.self, from: data)
        } catch {
            throw Refusal("it is not a well-formed \(Message.kind): \(Self.describe(error))")
        }
        try message.check()
        return message
    }

    /// The version of a message, read before the rest.
    private struct Versioned: Decodable {
        var v: Int?
    }

    /// Why a message was refused, for the log.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A message whose contents are checked after decoding.
    protocol Checked {
        /// What the message is, for refusals: "command", "reply", "host record".
        static var kind: String { get }
        /// Fails when a name, an identifier or a count is outside what the format allows.
        func check() throws(Refusal)
    }

    /// Whether `name` may name a rig, a host, a camera, a take or a command: 1 to 64 letters, digits, `-`, `_` and
    /// `.`, not starting with `.`, so that it is safe in a topic, a URL path and a file name.
    static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64, !name.hasPrefix(".") else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    static func requireName(_ name: String, _ what: String) throws(Refusal) {
        guard isValidName(name) else {
            throw Refusal("its \(what) '\(name.prefix(80))' is not 1 to 64 letters, digits, '-', '_' and '.'")
        }
    }

    /// A decoding error in a sentence.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not what it should be"
        default: "\(error)"
        }
    }
}

extension RigWire.HostState: RigWire.Checked {
    static var kind: String { "host record" }

    func check() throws(RigWire.Refusal) {
        try RigWire.requireName(host, "host")
        if let session { try RigWire.requireName(session, "session") }
        guard (cameras?.count ?? 0) <= RigWire.maximumCameras else {
            throw RigWire.Refusal("it lists too many cameras")
        }
        for camera in cameras ?? [] { try RigWire.requireName(camera.name, "camera") }
        if let files, !files.url.lowercased().hasPrefix("http://") {
            throw RigWire.Refusal("its file service '\(files.url.prefix(80))' is not an http:// URL")
        }
    }
}

extension RigWire.Command: RigWire.Checked {
    static var kind: String { "command" }

    func check() throws(RigWire.Refusal) {
        try RigWire.requireName(id, "identifier")
        guard RigWire.operations.contains(op) else {
            throw RigWire.Refusal("its operation '\(op.prefix(40))' is none of \(RigWire.operations.sorted())")
        }
        guard (hosts?.count ?? 0) <= RigWire.maximumCameras else { throw RigWire.Refusal("it names too many hosts") }
        for host in hosts ?? [] { try RigWire.requireName(host, "host") }
        if let take { try RigWire.requireName(take, "take") }
        if let timeoutMs, !(1...3_600_000).contains(timeoutMs) {
            throw RigWire.Refusal("its timeout of \(timeoutMs) ms is not from 1 ms to an hour")
        }
        switch op {
        case "fire":
            guard atNs != nil, take != nil else { throw RigWire.Refusal("a fire needs 'at_ns' and 'take'") }
        case "collect":
            guard take != nil else { throw RigWire.Refusal("a collect needs 'take'") }
        case "set":
            guard let property, let value, property.utf8.count <= 64, value.utf8.count <= 256 else {
                throw RigWire.Refusal("a set needs a 'property' (64 bytes at most) and a 'value' (256 at most)")
            }
        default:
            break
        }
    }
}

extension RigWire.Reply: RigWire.Checked {
    static var kind: String { "reply" }

    func check() throws(RigWire.Refusal) {
        try RigWire.requireName(id, "identifier")
        try RigWire.requireName(host, "host")
        guard (cameras?.count ?? 0) <= RigWire.maximumCameras else {
            throw RigWire.Refusal("it lists too many cameras")
        }
        for camera in cameras ?? [] {
            try RigWire.requireName(camera.camera, "camera")
            guard (camera.files?.count ?? 0) <= RigWire.maximumFilesPerCamera else {
                throw RigWire.Refusal("camera '\(camera.camera)' lists too many files")
            }
            for file in camera.files ?? [] {
                try RigWire.requireName(file.name, "file name")
                guard file.sha256.count == 64, file.sha256.allSatisfy(\.isHexDigit) else {
                    throw RigWire.Refusal("file '\(file.name)' has no SHA-256 digest in hexadecimal")
                }
                guard file.url.lowercased().hasPrefix("http://") else {
                    throw RigWire.Refusal("file '\(file.name)' is not at an http:// URL")
                }
            }
        }
    }
}
