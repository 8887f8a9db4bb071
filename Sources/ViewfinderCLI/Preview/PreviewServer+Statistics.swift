import Viewfinder
import ViewfinderSystem

extension PreviewServer {
    /// The figures `/stats` reports, as JSON.
    struct Statistics: Encodable {
        /// One open stream.
        struct Stream: Encodable {
            /// The name the page gave the stream, or `viewer-N`.
            var viewer: String
            var framesSent: Int
            var framesSkipped: UInt64
            var framesPerSecond: Double
            var bytesSent: Int
            var seconds: Double
        }

        /// What the preview shows, such as `vivid (/dev/video0)`.
        var source: String
        /// The source's format, such as `640x480@25/yuyv`.
        var format: String
        /// Frames the source delivered.
        var frames: UInt64
        /// Frames the source delivered per second, recently.
        var framesPerSecond: Double
        /// Frames encoded as JPEG for viewers (fewer than delivered when viewers are slower than the source).
        var framesEncoded: UInt64
        var width: Int?
        var height: Int?
        /// The size of the newest JPEG image, in bytes.
        var jpegBytes: Int
        /// Why the source failed, if it did.
        var failure: String?
        var uptimeSeconds: Double
        /// Open connections, streams included.
        var connections: Int
        var maximumConnections: Int
        var streams: [Stream]
    }

    /// The figures now.
    var statistics: Statistics {
        let feedStatistics = feed.statistics
        let now = MonotonicTimestamp.now()
        let (connections, streams) = withViewers { connections, viewers in
            let streams = viewers.sorted { $0.key < $1.key }.map { _, viewer in
                Statistics.Stream(
                    viewer: viewer.name, framesSent: viewer.framesSent, framesSkipped: viewer.framesSkipped,
                    framesPerSecond: viewer.meter.rate(at: now), bytesSent: viewer.bytesSent,
                    seconds: now.duration(since: viewer.started).inSeconds)
            }
            return (connections, streams)
        }
        return Statistics(
            source: title, format: format, frames: feedStatistics.frames,
            framesPerSecond: feedStatistics.framesPerSecond, framesEncoded: feedStatistics.framesEncoded,
            width: feedStatistics.dimensions?.width, height: feedStatistics.dimensions?.height,
            jpegBytes: feedStatistics.jpegBytes, failure: feedStatistics.failure,
            uptimeSeconds: now.duration(since: startTime).inSeconds, connections: connections,
            maximumConnections: configuration.http.maximumConnections, streams: streams)
    }
}
