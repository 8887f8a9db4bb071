import Viewfinder
import ViewfinderSystem

/// Sends a feed to one viewer as Motion JPEG over HTTP: a `multipart/x-mixed-replace` response with one JPEG image
/// per part, which browsers show in an `<img>` element as it arrives.
///
/// The stream sends the newest frame each time the viewer has taken the last one, and skips the frames published
/// meanwhile: a slow viewer gets fewer frames, never a backlog. A viewer that takes nothing for ``sendTimeout`` is
/// dropped.
struct MJPEGStream {
    /// The boundary between parts.
    static let boundary = "viewfinder-frame"

    /// The connection to the viewer.
    let socket: Socket
    /// Where the frames come from.
    let feed: PreviewFeed
    /// How long the viewer may take to accept a frame.
    let sendTimeout: Duration
    /// The response's head, `multipart/x-mixed-replace` with ``boundary``, from the server's exchange.
    let head: [UInt8]

    /// Sends frames until the viewer goes away, a send times out, or `isStopping` says so.
    ///
    /// - Parameters:
    ///   - headOnly: Whether to answer a `HEAD` request: the response head only.
    ///   - isStopping: Checked between frames and at least once a second.
    ///   - sent: Called after each frame with its number, the frames skipped before it, and its size in bytes.
    func run(headOnly: Bool, isStopping: () -> Bool, sent: (UInt64, UInt64, Int) -> Void) throws {
        let wakeup = try Wakeup()
        feed.addWaiter(wakeup)
        defer { feed.removeWaiter(wakeup) }
        try socket.send(head, until: .now + sendTimeout, while: "starting a stream")
        guard !headOnly else { return }
        var scratch = [UInt8](repeating: 0, count: 512)
        var last: UInt64 = 0
        while !isStopping() {
            wakeup.drain()
            if let (number, jpeg) = feed.jpeg(newerThan: last) {
                try send(jpeg, number: number)
                sent(number, last == 0 ? 0 : number - last - 1, jpeg.count)
                last = number
                continue
            }
            let ready = try Poll.wait(
                [.init(wakeup.descriptor, for: Poll.readable), .init(socket.descriptor, for: Poll.readable)],
                until: .now + .seconds(1))
            if ready[1] != 0 {
                // A viewer sends nothing after its request: anything readable is its closing (or noise to drop).
                let count = try scratch.withUnsafeMutableBytes {
                    try socket.receiveNow(into: $0, while: "reading from a viewer")
                }
                if count == 0 { return }
            }
        }
    }

    private func send(_ jpeg: [UInt8], number: UInt64) throws {
        let deadline = ContinuousClock.now + sendTimeout
        let partHead = """
            --\(Self.boundary)\r
            Content-Type: image/jpeg\r
            Content-Length: \(jpeg.count)\r
            X-Frame-Number: \(number)\r
            \r

            """
        let activity = "sending frame \(number)"
        try socket.send(Array(partHead.utf8), until: deadline, more: true, while: activity)
        try socket.send(jpeg, until: deadline, more: true, while: activity)
        try socket.send(Array("\r\n".utf8), until: deadline, while: activity)
    }
}
