import ViewfinderCore

/// One live view frame from a Nikon camera: a vendor header followed by a JPEG image.
public struct PTPNikonLiveViewFrame: Sendable {
    /// The bytes GetLiveViewImg returned, header included.
    public let data: [UInt8]
    /// Where the JPEG image is in ``data``: from its start-of-image marker to its last end-of-image marker.
    public let jpegRange: Range<Int>

    /// Finds the JPEG image in the data of a GetLiveViewImg transaction.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the data holds no JPEG image.
    public init(data: [UInt8]) throws(ViewfinderError) {
        self.data = data
        jpegRange = try Self.jpegRange(in: data)
    }

    /// Where the JPEG image is in the data of a GetLiveViewImg transaction.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the data holds no JPEG image.
    public static func jpegRange(in data: [UInt8]) throws(ViewfinderError) -> Range<Int> {
        guard let start = firstStartOfImage(in: data), let end = lastEndOfImage(in: data), end > start else {
            throw ViewfinderError(.malformedData, "a live view frame of \(data.count) bytes holds no JPEG image")
        }
        return start..<end
    }

    /// The JPEG image, without copying it.
    public var jpeg: ArraySlice<UInt8> { data[jpegRange] }

    /// The bytes before the JPEG image: the camera's live view header.
    public var header: ArraySlice<UInt8> { data[..<jpegRange.lowerBound] }

    /// Where the first JPEG start-of-image marker (FF D8 FF) at or after `start` is in `data`.
    static func firstStartOfImage(in data: [UInt8], from start: Int = 0) -> Int? {
        var index = start
        while index + 2 < data.count {
            if data[index] == 0xFF, data[index + 1] == 0xD8, data[index + 2] == 0xFF { return index }
            index += 1
        }
        return nil
    }

    /// Where the last JPEG end-of-image marker (FF D9) in `data` ends.
    static func lastEndOfImage(in data: [UInt8]) -> Int? {
        var index = data.count - 2
        while index >= 0 {
            if data[index] == 0xFF, data[index + 1] == 0xD9 { return index + 2 }
            index -= 1
        }
        return nil
    }
}

extension PTPSession {
    /// Turns Nikon live view on and waits until the camera reports it ready.
    ///
    /// Polls ``PTPOperationCode/nikonDeviceReady`` while it answers ``PTPResponseCode/deviceBusy``.
    ///
    /// - Parameter readyTimeout: The longest wait for the camera to become ready.
    /// - Throws: `ViewfinderError/Code/timeout` when the camera stays busy, and the errors of the
    ///   transactions.
    public func startNikonLiveView(readyTimeout: Duration = .seconds(3)) async throws {
        _ = try await transaction(.nikonStartLiveView)
        try await waitUntilNikonReady(timeout: readyTimeout)
    }

    /// Polls Nikon DeviceReady until it answers OK.
    ///
    /// Fails only when a poll that began after `timeout` still finds the camera busy, so a caller that gets no thread
    /// for a while (a busy machine) is not told the camera stayed busy when it never asked.
    ///
    /// - Parameters:
    ///   - timeout: The longest wait for the camera to become ready.
    ///   - activity: What the camera is busy with, for the timeout's message, such as `"starting live view"`.
    /// - Throws: `ViewfinderError/Code/timeout` when the camera stays busy, and what DeviceReady answers other than
    ///   OK and DeviceBusy, such as ``PTPResponseCode/nikonOutOfFocus`` after ``PTPOperationCode/nikonAfDrive``.
    public func waitUntilNikonReady(timeout: Duration = .seconds(3), after activity: String = "starting live view")
        async throws
    {
        let deadline = ContinuousClock.now + timeout
        while true {
            let isLastChance = ContinuousClock.now >= deadline
            do {
                _ = try await transaction(.nikonDeviceReady)
                return
            } catch let error as ViewfinderError where error.responseCode == PTPResponseCode.deviceBusy.rawValue {
                guard !isLastChance else {
                    throw ViewfinderError(.timeout, "the camera stayed busy for \(timeout) after \(activity)")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// Turns Nikon live view off.
    public func endNikonLiveView() async throws {
        _ = try await transaction(.nikonEndLiveView)
    }

    /// The current Nikon live view frame.
    ///
    /// - Throws: `ViewfinderError/Code/protocolFailure` with ``PTPResponseCode/nikonNotLiveView``
    ///   when live view is off, and `ViewfinderError/Code/malformedData` when the frame holds no JPEG.
    public func nikonLiveViewFrame() async throws -> PTPNikonLiveViewFrame {
        try PTPNikonLiveViewFrame(data: try await transaction(.nikonGetLiveViewImage).data)
    }

    /// Starts recording a movie to the card; live view must be on.
    public func startNikonMovieRecording() async throws {
        _ = try await transaction(.nikonStartMovieRecording)
    }

    /// Stops recording a movie; the camera reports ``PTPEventCode/nikonMovieRecordComplete`` when the file is written.
    public func endNikonMovieRecording() async throws {
        _ = try await transaction(.nikonEndMovieRecording)
    }
}
