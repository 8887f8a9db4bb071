/// Reads an HTTP/1.1 answer's body as its bytes arrive: by `Content-Length`, in chunks, or up to the close, never
/// holding more than a bound.
///
/// ```swift
/// var reader = try HTTPBodyReader(head: head, maximumLength: 1 << 20)
/// try reader.take(received[...])        // as each read arrives
/// if reader.isComplete { use(reader.body) }
/// try reader.finishAtClose()            // when the peer closes the connection
/// ```
package struct HTTPBodyReader: Sendable {
    /// Why a body could not be read.
    package enum Failure: Error, Hashable {
        /// The body is longer than the reader takes; the bound is given.
        case tooLong(Int)
        /// A chunk's size line is not a hexadecimal number, or its data does not end in a line end.
        case malformedChunk
        /// The peer closed the connection before the body it announced was whole.
        case truncated
    }

    private enum Framing: Sendable, Equatable {
        case length(Int)
        case chunked
        case untilClose
    }

    private enum ChunkState: Sendable, Equatable {
        /// Reading a chunk's size line.
        case size
        /// Reading `remaining` bytes of a chunk's data.
        case data(remaining: Int)
        /// Reading the line end after a chunk's data.
        case dataEnd
        /// Reading trailer lines after the last chunk, up to an empty one.
        case trailer
        case done
    }

    private let framing: Framing
    private let maximumLength: Int
    private var chunkState = ChunkState.size
    /// Bytes of a line not yet whole: a chunk's size line or a trailer line.
    private var line: [UInt8] = []
    /// The body read so far.
    package private(set) var body: [UInt8] = []
    /// Whether the body is whole.
    package private(set) var isComplete = false
    /// How many of the bytes taken came after the body's end: none when the peer sent the body alone.
    package private(set) var excess = 0

    /// Whether the body ends where the peer closes the connection (it has no length and no chunks), so that the
    /// connection carries nothing after it.
    package var endsAtClose: Bool { framing == .untilClose }

    /// The longest chunk size line or trailer line read.
    private static let maximumLineLength = 1024

    /// A reader for the body that `head` announces, taking at most `maximumLength` bytes of it.
    ///
    /// - Throws: ``Failure/tooLong(_:)`` for a `Content-Length` above the bound.
    package init(head: HTTPHead, maximumLength: Int) throws(Failure) {
        self.maximumLength = maximumLength
        if head["transfer-encoding"]?.lowercased().contains("chunked") == true {
            framing = .chunked
        } else if let text = head["content-length"], let length = Int(text), length >= 0 {
            guard length <= maximumLength else { throw .tooLong(maximumLength) }
            framing = .length(length)
            isComplete = length == 0
        } else {
            framing = .untilClose
        }
    }

    /// Takes the next bytes received.
    ///
    /// - Throws: ``Failure/tooLong(_:)`` past the bound, ``Failure/malformedChunk`` for chunks out of form.
    package mutating func take(_ bytes: ArraySlice<UInt8>) throws(Failure) {
        guard !isComplete else {
            excess += bytes.count
            return
        }
        switch framing {
        case .length(let length):
            let wanted = length - body.count
            body += bytes.prefix(wanted)
            excess += max(0, bytes.count - wanted)
            isComplete = body.count == length
        case .untilClose:
            guard body.count + bytes.count <= maximumLength else { throw .tooLong(maximumLength) }
            body += bytes
        case .chunked:
            var rest = bytes
            while !rest.isEmpty, !isComplete {
                try takeChunked(&rest)
            }
            excess += rest.count
        }
    }

    /// The peer closed the connection: a body read up to the close is whole, one with a length or chunks is not.
    ///
    /// - Throws: ``Failure/truncated`` when the body announced is not whole.
    package mutating func finishAtClose() throws(Failure) {
        guard !isComplete else { return }
        guard framing == .untilClose else { throw .truncated }
        isComplete = true
    }

    private mutating func takeChunked(_ rest: inout ArraySlice<UInt8>) throws(Failure) {
        switch chunkState {
        case .size, .trailer:
            guard let lineFeed = rest.firstIndex(of: UInt8(ascii: "\n")) else {
                line += rest
                rest = []
                guard line.count <= Self.maximumLineLength else { throw .malformedChunk }
                return
            }
            line += rest[..<lineFeed]
            rest = rest[(lineFeed + 1)...]
            guard line.count <= Self.maximumLineLength else { throw .malformedChunk }
            let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self)
            line = []
            if chunkState == .trailer {
                if text.isEmpty {
                    chunkState = .done
                    isComplete = true
                }
                return
            }
            let digits = HTTPHead.trimmed(text.prefix { $0 != ";" })
            guard !digits.isEmpty, digits.count <= 8, let size = Int(digits, radix: 16) else { throw .malformedChunk }
            guard size <= maximumLength - body.count else { throw .tooLong(maximumLength) }
            chunkState = size == 0 ? .trailer : .data(remaining: size)
        case .data(let remaining):
            let taken = rest.prefix(remaining)
            body += taken
            rest = rest.dropFirst(taken.count)
            chunkState = taken.count == remaining ? .dataEnd : .data(remaining: remaining - taken.count)
        case .dataEnd:
            guard let first = rest.first else { return }
            rest = rest.dropFirst()
            if first == UInt8(ascii: "\n") {
                chunkState = .size
            } else if first != UInt8(ascii: "\r") {
                throw .malformedChunk
            }
        case .done:
            rest = []
        }
    }
}
