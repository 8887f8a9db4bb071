import ViewfinderSystem
import ViewfinderTestSupport

/// A TZ90 played back from its recorded answers (`Fixtures/TZ90`, see its README): each command is answered with
/// the camera's own bytes, except that settings set since are answered with their new value, camera commands and
/// live view's start and stop with ok (the TZ90's answer to each), and answers the test replaces.
final class RecordedTZ90: Sendable {
    static let fixtures = String(#filePath.dropLast("RecordedTZ90.swift".count)) + "Fixtures/TZ90/"

    private let overrides = Locked<[String: ScriptedHTTPResponder.Answer]>([:])
    private let settings = Locked<[String: String]>([:])

    /// The recorded answer to a query, such as `mode=getsetting&type=iso`.
    static func recorded(_ query: String) -> [UInt8]? {
        let name = query.replacingPrefix("mode=").replacing("&type=", "-").replacing("&value=", "-")
            .replacing("&", "-")
        return try? readFile(fixtures + name + ".txt")
    }

    /// Answers `query` with `answer` from now on.
    func override(_ query: String, with answer: ScriptedHTTPResponder.Answer) {
        overrides.withLock { $0[query] = answer }
    }

    /// Sets a setting as the camera's own dial would.
    func set(_ type: String, to value: String) {
        settings.withLock { $0[type] = value }
    }

    /// The answer to `query`.
    func answer(_ query: String) -> ScriptedHTTPResponder.Answer {
        if let answer = overrides.withLock({ $0[query] }) { return answer }
        let ok = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<camrply><result>ok</result></camrply>\n".utf8)
        let fields = Dictionary(
            query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { first, _ in first })
        switch fields["mode"] {
        case "accctrl":
            return .body(Array("ok,Viewfinder,remote,open".utf8))
        case "setsetting":
            if let type = fields["type"], let value = fields["value"] {
                set(type, to: value.replacing("%2F", "/"))
            }
            return .body(ok)
        case "getsetting":
            if let type = fields["type"], let value = settings.withLock({ $0[type] }) {
                return .body(
                    Array(
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<camrply><result>ok</result><settingvalue \(type)=\"\(value)\"></settingvalue></camrply>\n"
                            .utf8))
            }
        case "camcmd", "startstream", "stopstream":
            return .body(ok)
        default:
            break
        }
        if let recorded = Self.recorded(query) { return .body(recorded) }
        return .body(
            Array(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<camrply><result>err_non_support</result></camrply>\n".utf8
            ))
    }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }

    fileprivate func replacing(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
