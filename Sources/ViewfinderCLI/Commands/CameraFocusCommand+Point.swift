import Viewfinder

extension CameraFocusCommand {
    /// What `--at` and `--info` print as JSON: the point focused at, if any, and the camera's focus information.
    private struct PointReport: Encodable {
        var at: FocusInfoJSON.Point?
        var focusInfo: FocusInfoJSON?
    }

    /// The most live view frames read after focusing at a point before the focus information must show it: the
    /// camera reports its moved area with the frames that follow.
    private static let framesToShowTheMove = 60

    /// `--at X,Y` and `--info`: focuses at a point of live view and shows the focus information, or shows it alone.
    static func runAtPoint(_ arguments: ParsedArguments) async throws {
        let point = try arguments.value("at").map { try parsePoint($0, commandPath: arguments.commandPath) }
        var info: FocusInfo?
        try await CameraTarget(arguments).withConnectedCamera { camera in
            if point != nil {
                try require(.touchAutoFocus, of: camera, else: "cannot focus at a point of its live view")
            } else {
                try require(.focusInfo, of: camera, else: "does not report its autofocus points")
            }
            try await withLiveView(of: camera, for: point == nil ? "the focus information" : "focusing at a point") {
                if let point {
                    try await camera.touchAutoFocus(at: point)
                    info = try await focusInfo(of: camera, showing: point)
                } else {
                    info = camera.focusInfo
                }
            }
        }
        if arguments.flag("json") {
            try Console.printJSON(
                PointReport(at: point.map(FocusInfoJSON.Point.init), focusInfo: info.map(FocusInfoJSON.init)))
            return
        }
        if let point {
            Console.print("Focused at \(point)")
        }
        guard let info else {
            Console.print("The camera has not said where its autofocus points are")
            return
        }
        Console.print("Autofocus points in \(info.aspect):")
        for focusPoint in info.points {
            let marks = [focusPoint.isActive ? "active" : nil, focusPoint.hasFocus ? "in focus" : nil].compactMap(
                \.self)
            Console.print("  \(focusPoint.rect)\(marks.isEmpty ? "" : " (\(marks.joined(separator: ", ")))")")
        }
    }

    /// A point as `X,Y` or `XxY`.
    ///
    /// - Throws: ``UsageError`` for anything else.
    static func parsePoint(_ text: String, commandPath: String) throws -> LiveViewPoint {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == "x" })
        guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]), x >= 0, y >= 0 else {
            throw UsageError("--at takes a point as X,Y, such as 1500,1000, not '\(text)'", commandPath: commandPath)
        }
        return LiveViewPoint(x: x, y: y)
    }

    /// The camera's focus information once a live view frame shows its active area around `point`, reading frames
    /// until one does or ``framesToShowTheMove`` have come; the last information it gave otherwise.
    private static func focusInfo(of camera: any Camera, showing point: LiveViewPoint) async throws -> FocusInfo? {
        func shows(_ info: FocusInfo?) -> Bool {
            info?.activePoints.contains { area in
                let rect = area.rect
                return abs(rect.x + rect.width / 2 - point.x) <= rect.width / 2
                    && abs(rect.y + rect.height / 2 - point.y) <= rect.height / 2
            } ?? false
        }
        if shows(camera.focusInfo) { return camera.focusInfo }
        let (frames, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let subscription = camera.liveViewPublisher.sinkWithReadyHandler { _ in
            continuation.finish()
        } receiveValue: { _, ready in
            continuation.yield()
            ready()
        }
        defer { subscription.cancel() }
        var count = 0
        for await _ in frames {
            count += 1
            if shows(camera.focusInfo) || count >= framesToShowTheMove { break }
        }
        return camera.focusInfo
    }
}

/// Focus information as the CLI and the remote print it in JSON: the aspect, and each point's rectangle, whether the
/// camera uses it and whether it is in focus.
struct FocusInfoJSON: Encodable, Sendable {
    /// A point of the live view picture.
    struct Point: Encodable, Sendable {
        var x: Int
        var y: Int

        init(_ point: LiveViewPoint) {
            x = point.x
            y = point.y
        }
    }

    /// One autofocus point.
    struct Area: Encodable, Sendable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var active: Bool
        var focused: Bool
    }

    var width: Int
    var height: Int
    var points: [Area]

    init(_ info: FocusInfo) {
        width = info.aspect.width
        height = info.aspect.height
        points = info.points.map {
            Area(
                x: $0.rect.x, y: $0.rect.y, width: $0.rect.width, height: $0.rect.height, active: $0.isActive,
                focused: $0.hasFocus)
        }
    }
}
