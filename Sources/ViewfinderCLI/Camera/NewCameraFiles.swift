import Viewfinder
import ViewfinderSystem

/// The files a camera reports as new while a command makes them (a picture, a movie), and their download.
///
/// Watching starts when it is made, so a file reported at once is not missed; a few files at most are kept, whatever
/// the camera sends.
final class NewCameraFiles: Sendable {
    /// The most new files kept, such as a JPEG and a raw file of one picture.
    static let maximumCount = 8

    /// The camera's files.
    let access: any CameraFileAccess
    private let arrived = Locked<[CameraFileItem]>([])
    private let token: ObservationToken

    /// Starts watching the camera's new files.
    ///
    /// - Throws: ``CommandFailure`` with exit status 76 when the camera gives no access to its files.
    init(of camera: any Camera) throws {
        access = try CameraFileListing.fileAccess(of: camera)
        token = access.addNewFileObserver { [arrived] item in
            guard !item.isFolder else { return }
            arrived.withLock { if $0.count < Self.maximumCount { $0.append(item) } }
        }
    }

    deinit {
        token.cancel()
    }

    /// The new files, once the first has come or `timeout` seconds have passed (empty then).
    func wait(timeout: Double) async throws -> [CameraFileItem] {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while arrived.withLock(\.isEmpty) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return arrived.withLock { $0 }
    }

    /// Downloads `files` into `directory`, with a progress bar when `showsProgress`; returns the paths saved.
    func save(_ files: [CameraFileItem], to directory: OutputDirectory, showsProgress: Bool) async throws -> [String] {
        let download = CameraDownload(access: access, directory: directory, showsProgress: showsProgress)
        var saved: [String] = []
        for file in files {
            saved.append(try await download.download(file))
        }
        return saved
    }
}
