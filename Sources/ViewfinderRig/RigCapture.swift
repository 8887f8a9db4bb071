import ViewfinderCore

/// One camera's picture from ``CameraRig/capturePictures(into:engagingAutoFocus:at:filesPerPicture:settleTime:timeout:)``:
/// when it was taken and where its files were saved.
public struct RigCapture: Sendable {
    /// One file of the picture, saved.
    public struct File: Sendable {
        /// The file as the camera listed it.
        public let item: CameraFileItem
        /// Where it was saved: the rig's folder, the camera's name, a dash, and the camera's file name.
        public let path: String

        /// Creates a saved file.
        public init(item: CameraFileItem, path: String) {
            self.item = item
            self.path = path
        }
    }

    /// When the shutter was fired and the picture reported taken.
    public let release: ShutterRelease
    /// The picture's files, such as a JPEG and a raw file, in the order the camera reported them.
    public let files: [File]

    /// Creates a capture.
    public init(release: ShutterRelease, files: [File]) {
        self.release = release
        self.files = files
    }
}

extension RigReport where Success == RigCapture {
    /// How far apart the shutter requests went out, over the cameras whose pictures were saved.
    public var requestSpread: Duration {
        ShutterRelease.requestSpread(of: successes.map(\.value.release))
    }
}
