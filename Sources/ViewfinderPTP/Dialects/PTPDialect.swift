import ViewfinderCore

/// A vendor's way of speaking PTP: what a ``PTPCamera`` does differently for the cameras of one maker.
///
/// ISO 15740 fixes the transactions, the datasets and a few properties; vendors add operations, events and
/// property codes of their own, in ranges every vendor reuses (one vendor's `0x9201` starts live view, another's
/// is a step of its connection). A dialect gives those codes their meaning. It is chosen once per connection, from the camera's
/// ``PTPDeviceInfo`` (its vendor extension and manufacturer, never its operation list alone), by
/// ``PTPDialects/dialect(for:)``, and supplies everything that differs between vendors:
///
/// - the opening steps after the session opens, and the properties read then (``open(_:)``);
/// - how events arrive: pushed by the transport (``handle(_:)``) or polled by the dialect itself, from a task it
///   starts in ``open(_:)`` and stops in ``connectionEnded(with:)``;
/// - which typed properties exist, their value tables, and how a value is set or stepped, for properties the camera
///   moves without listing their values;
/// - what the camera can do (``functionality``), the shutter, live view and video recording: the operations of
///   `CameraDriverOperations`, which the PTP driver's connection passes to its dialect.
///
/// Files on the card are the standard operations for every vendor and stay in ``PTPCamera``.
///
/// Viewfinder's own dialects are each one folder under `Dialects/`: the type, its codes as extensions of the code
/// types, its value tables and anything it keeps per connection; adding one is adding a folder and one line in
/// ``PTPDialects``' list. A dialect in another package is registered instead, before the first camera connects:
///
/// ```swift
/// final class LeicaDialect: PTPDialect {
///     static let name = "Leica"
///     static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool { deviceInfo.manufacturer.hasPrefix("Leica") }
///     static func open(_ connection: PTPConnection) async throws -> LeicaDialect { … }
///     // functionality, handle(_:), setRawValue(_:forPropertyNamed:), takePicture(engagingAutoFocus:), …
/// }
///
/// PTPDialects.register(LeicaDialect.self)
/// ```
public protocol PTPDialect: CameraDriverOperations {
    /// The dialect's name for messages, such as `"standard PTP"`.
    static var name: String { get }

    /// Whether this dialect speaks to the camera that `deviceInfo` describes.
    static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool

    /// Runs the dialect's opening steps on a new connection and reads the camera's properties.
    ///
    /// - Throws: Errors that fail the connection; the camera then does not connect.
    static func open(_ connection: PTPConnection) async throws -> Self

    /// What the camera can do through this dialect.
    var functionality: CameraFunctionality { get }

    /// Sees an event the moment it arrives, before the handlers of the events ahead of it have run: for what must
    /// not wait behind them, such as the end of a capture. It must not block.
    func observe(_ event: PTPEvent)

    /// Acts on an event the transport delivered, after the events before it: reads changed properties again,
    /// reports new files.
    func handle(_ event: PTPEvent) async

    /// Events were lost (the camera sent more than the connection kept while its handlers were busy): reads again
    /// what they could have changed.
    func eventsWereMissed() async

    /// The whole of a file reached the app: a camera that holds pictures for the computer can let go of it.
    func fileDownloaded(_ handle: UInt32) async
    /// Makes the camera ready for a file operation, for cameras that offer remote shooting and their files one at a
    /// time (Fujifilm's over WiFi).
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera cannot switch to its files now.
    func prepareFileAccess() async throws

    /// The connection ended: waits under way fail with `error`, and tasks the dialect runs stop.
    func connectionEnded(with error: ViewfinderError)

    /// Where live view's frames are read when not on the session's command thread: a task that prefers it fetches
    /// each frame without waking another thread.
    var liveViewExecutor: (any TaskExecutor)? { get }
}

extension PTPDialect {
    /// None: live view's frames are the answers to transactions on the session's command thread.
    public var liveViewExecutor: (any TaskExecutor)? { nil }

    /// Does nothing: the dialect acts on events in ``handle(_:)``.
    public func observe(_ event: PTPEvent) {}

    /// Does nothing: the dialect keeps nothing that missed events could have changed.
    public func eventsWereMissed() async {}

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras have no property that moves by steps")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func engageAutoFocus() async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot hold their shutter button half down over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func disengageAutoFocus() async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot hold their shutter button half down over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func engageShutter() async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot hold their shutter over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func disengageShutter() async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot hold their shutter over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot drive their focus over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func touchAutoFocus(at point: LiveViewPoint) async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot focus at a point of their live view over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot zoom their live view over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func updateClock(to time: CameraClockTime) async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras' clocks cannot be set over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func readClock() async throws -> CameraClockTime {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras' clocks cannot be read over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func startLiveView() async throws {
        throw ViewfinderError(
            .notAvailable, "\(Self.name) cameras offer no live view Viewfinder can drive")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func liveViewImage() async throws -> [UInt8] {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras offer no live view Viewfinder can drive")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func startRecording() async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot record video over PTP")
    }

    /// Throws `ViewfinderError/Code/notAvailable`, naming the dialect.
    public func stopRecording() async throws {
        throw ViewfinderError(.notAvailable, "\(Self.name) cameras cannot record video over PTP")
    }

    /// Does nothing: the camera keeps its files whether or not they were downloaded.
    public func fileDownloaded(_ handle: UInt32) async {}
    /// Does nothing: the camera's files are there while it shoots.
    public func prepareFileAccess() async throws {}

    /// Runs a step of a connection's opening it can do without: a camera's refusal is noted by the result, any other
    /// error fails the connection.
    ///
    /// - Returns: Whether the camera did the step.
    @discardableResult
    public static func refusalIsNotFatal(_ step: () async throws -> some Any) async throws -> Bool {
        do {
            _ = try await step()
            return true
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            return false
        }
    }
}
