import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The far end of a socket pair, played by a fuzz input: on a thread of its own it sends the input, then the end of
/// the stream, and reads what the near end sends until the near end closes, so neither side ever waits on a full
/// socket buffer.
///
/// ```swift
/// let (near, far) = try Socket.pair()
/// let feeder = try StreamFeeder(far, sending: input)
/// runTheCodeUnderTest(on: near)
/// near.close()
/// feeder.finish()
/// ```
package final class StreamFeeder: Sendable {
    private let thread: PlatformThread
    private let socket: Socket

    /// Starts feeding `input` into `socket`, handing what comes back to `received` on the feeder's thread.
    ///
    /// - Parameters:
    ///   - socket: The far end; the feeder closes it in ``finish()``.
    ///   - input: The bytes to send.
    ///   - timeout: The longest the feeder waits for the near end to read or write before it gives up.
    ///   - received: Called with each piece the near end sends.
    package init(
        _ socket: Socket, sending input: [UInt8], timeout: Duration = .seconds(5),
        received: @escaping @Sendable (UnsafeRawBufferPointer) -> Void = { _ in }
    ) throws {
        self.socket = socket
        thread = try PlatformThread(name: "fuzz-feeder") {
            Self.pump(socket, input, timeout: timeout, received: received)
        }
    }

    /// Waits until the near end has closed (or the feeder gave up), then closes the far end.
    package func finish() {
        thread.join()
        socket.close()
    }

    private static func pump(
        _ socket: Socket, _ input: [UInt8], timeout: Duration,
        received: (UnsafeRawBufferPointer) -> Void
    ) {
        var sent = 0
        var open = true
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        if input.isEmpty { socket.shutdownSending() }
        while open {
            let sending = sent < input.count
            var descriptor = pollfd(
                fd: socket.descriptor, events: Int16(POLLIN) | (sending ? Int16(POLLOUT) : 0), revents: 0)
            let ready = poll(&descriptor, 1, Int32(timeout.components.seconds * 1000))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return }
            if sending, descriptor.revents & Int16(POLLOUT) != 0 {
                let count = input.withUnsafeBytes {
                    send(socket.descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
                }
                if count > 0 { sent += count }
                if count < 0, errno != EAGAIN, errno != EINTR { sent = input.count }
                if sent == input.count { socket.shutdownSending() }
            }
            if descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = scratch.withUnsafeMutableBytes { recv(socket.descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    scratch.withUnsafeBytes { received(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    open = false
                }
            }
        }
    }
}
