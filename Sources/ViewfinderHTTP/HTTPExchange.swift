import ViewfinderSystem

/// One request a server lets through, and the connection to answer it on.
package struct HTTPExchange: Sendable {
    /// The request.
    package let request: HTTPRequest
    /// The connection's socket; the server closes it once the handler returns.
    package let socket: Socket
    /// A number that tells the connection from the others.
    package let connectionID: Int
    /// The fields every answer carries: ``HTTPAccess/protectingHeaders``, and the token's cookie when the request
    /// brought the token in its query.
    package let headers: [(name: String, value: String)]

    /// Whether the request asks for the head of the answer only.
    package var isHead: Bool { request.method == "HEAD" }

    /// Sends `response` with the exchange's fields, within `timeout`; only its head for a `HEAD` request.
    package func respond(_ response: HTTPResponse, within timeout: Duration) {
        try? response.send(on: socket, headOnly: isHead, extraHeaders: headers, until: .now + timeout)
    }

    /// The head of an answer whose body follows it, with the exchange's fields after `extra`.
    package func head(
        status: String, contentType: String, length: HTTPResponse.BodyLength,
        headers extra: [(name: String, value: String)] = []
    ) -> [UInt8] {
        HTTPResponse.head(status: status, contentType: contentType, length: length, headers: extra + headers)
    }
}
