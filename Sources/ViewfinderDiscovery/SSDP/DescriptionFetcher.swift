import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

/// Reads a UPnP device description from its LOCATION: one HTTP/1.1 GET, its answer bounded in size and time.
package enum DescriptionFetcher {
    /// The most bytes of an answer read, headers included.
    static let maximumAnswerLength = UPnPDeviceDescription.maximumLength + 8192

    /// Fetches and reads the description at `location`, all within `timeout`.
    ///
    /// - Throws: `ViewfinderError`: `invalidArgument` for a location that is not an `http://` URL, the connection's
    ///   error, `timeout`, or `malformedData` for an answer that is not a 200 with a description within bounds.
    static func fetch(_ location: String, timeout: Duration) throws(ViewfinderError) -> UPnPDeviceDescription {
        guard let url = HTTPURL(location) else {
            throw ViewfinderError(.invalidArgument, "the device description is not at an http:// URL: \(location)")
        }
        let deadline = ContinuousClock.now + timeout
        var answer: [UInt8] = []
        do throws(SocketError) {
            let socket = try Socket.connect(host: url.host, port: url.port, timeout: timeout)
            defer { socket.close() }
            try socket.send(url.getRequest().encoded(), until: deadline, while: "asking for \(location)")
            var buffer = [UInt8](repeating: 0, count: 16384)
            reading: while answer.count < maximumAnswerLength {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else {
                    throw SocketError(
                        .timedOut(timeout), while: "reading \(location)",
                        endpoint: HostPort.text(url.host, port: url.port))
                }
                let received = buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(SocketError) in
                        try socket.receive(into: raw, timeout: remaining, while: "reading \(location)")
                    }
                }
                switch received {
                case .success(let count):
                    answer += buffer[..<count]
                case .failure(let error) where error.reason == .closedByPeer:
                    break reading
                case .failure(let error):
                    throw error
                }
            }
        } catch {
            throw ViewfinderError(error)
        }
        return try description(inAnswer: answer, from: location)
    }

    /// The description in an HTTP answer: a 200, its body by Content-Length, chunks, or up to the close.
    package static func description(inAnswer answer: [UInt8], from location: String) throws(ViewfinderError)
        -> UPnPDeviceDescription
    {
        guard let end = HTTPHead.end(in: answer) else {
            throw ViewfinderError(.malformedData, "the answer from \(location) has no end of headers")
        }
        let head: HTTPHead
        do throws(HTTPHead.Failure) {
            head = try HTTPHead(parsing: answer[..<end])
        } catch {
            throw ViewfinderError(.malformedData, "the answer from \(location) has a header line without a name")
        }
        let status = head.startWords
        guard status.count >= 2, status[1] == "200" else {
            throw ViewfinderError(.malformedData, "\(location) answered '\(head.startLine.prefix(40))'")
        }
        var reader: HTTPBodyReader
        do throws(HTTPBodyReader.Failure) {
            reader = try HTTPBodyReader(head: head, maximumLength: maximumAnswerLength)
            try reader.take(answer[end...])
        } catch {
            throw ViewfinderError(.malformedData, "the answer from \(location) is not well formed (\(error))")
        }
        // An answer cut short is read as far as it came; the description's reader says what is missing.
        return try UPnPDeviceDescription(decoding: reader.body)
    }
}
