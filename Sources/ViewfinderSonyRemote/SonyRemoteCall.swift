import ViewfinderCore

/// One JSON-RPC call of the Camera Remote API: the body a client posts and what the camera's answer means.
///
/// A call is `{"method": …, "params": […], "id": …, "version": "1.0"}`; the answer holds the same `id` and either
/// `result`, an array of positional values, or `error`, an array of a code and a message.
package enum SonyRemoteCall {
    /// The body of a call of `method` with `params`, numbered `id`.
    package static func body(_ method: String, _ params: [JSONValue], id: Int, version: String = "1.0") -> [UInt8] {
        let call = JSONValue.object([
            ("method", .string(method)), ("params", .array(params)), ("id", .number(Double(id))),
            ("version", .string(version)),
        ])
        return Array(call.text.utf8)
    }

    /// The result of the answer `bytes` to `method`, from `peer`.
    ///
    /// - Throws: `ViewfinderError`: `malformedData` for an answer that is not JSON or has neither a result array nor
    ///   an error array; for an error array, the code that says what the camera refused (see ``error(code:message:method:peer:)``).
    package static func result(of bytes: [UInt8], method: String, peer: String) throws(ViewfinderError) -> [JSONValue] {
        let answer: JSONValue
        do {
            answer = try JSONValue(parsing: bytes)
        } catch {
            throw ViewfinderError(
                .malformedData, "\(peer) answered \(method) with something that is not JSON: \(error)")
        }
        if let error = answer["error"] {
            guard let parts = error.array, let code = parts.first?.integer else {
                throw ViewfinderError(.malformedData, "\(peer) answered \(method) with an error out of form")
            }
            let message = parts.dropFirst().first?.string ?? ""
            throw Self.error(code: code, message: String(message.prefix(200)), method: method, peer: peer)
        }
        guard let result = answer["result"]?.array else {
            throw ViewfinderError(.malformedData, "\(peer) answered \(method) with neither a result nor an error")
        }
        return result
    }

    /// The error for the API's error `code` and `message` answering `method`.
    ///
    /// Codes 1 (not available now), 12 (no such method), 14 and 15 (unsupported) are `notAvailable`, 3 (illegal
    /// argument) `invalidPropertyValue`, 2 (timeout) `timeout`, 7 (illegal state), 40401 (not ready), 40402 (already
    /// polling) and 40403 (still capturing) `deviceBusy`, 5 (illegal request) `invalidArgument`, the rest
    /// `protocolFailure`.
    package static func error(code: Int, message: String, method: String, peer: String) -> ViewfinderError {
        let kind: ViewfinderError.Code =
            switch code {
            case 1, 12, 14, 15: .notAvailable
            case 2: .timeout
            case 3: .invalidPropertyValue
            case 5: .invalidArgument
            case 7, 40401, 40402, 40403: .deviceBusy
            default: .protocolFailure
            }
        return ViewfinderError(kind, "\(peer) refused \(method): error \(code) \"\(message)\"")
    }
}
