import ViewfinderTestSupport

/// The address a server of the tool printed for its page, `http://HOST:PORT/?token=TOKEN`, and the token's field for
/// the requests a test makes.
struct PrintedAddress {
    var host: String
    var port: UInt16
    var token: String

    /// The first such address in `output`.
    init(in output: String) throws {
        guard let start = output.range(of: "http://"),
            case let rest = output[start.upperBound...].prefix(while: { !$0.isWhitespace }),
            let colon = rest.firstIndex(of: ":"),
            let port = UInt16(rest[rest.index(after: colon)...].prefix { $0.isNumber }),
            let tokenStart = rest.range(of: "/?token=")
        else { throw TestFailure("no address with a token in: \(output)") }
        host = String(rest[..<colon])
        self.port = port
        token = String(rest[tokenStart.upperBound...])
    }

    /// The field that carries the token.
    var tokenField: [String: String] { ["X-Viewfinder-Token": token] }
}
