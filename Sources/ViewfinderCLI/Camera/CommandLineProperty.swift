import Viewfinder

/// A camera property as the camera commands name, show, read, set and watch it, whatever the type of its values.
protocol CommandLineProperty: Sendable {
    /// The name on the command line, such as `iso` or `shutter`.
    var name: String { get }
    /// Other names accepted on the command line, such as `shutter-speed`.
    var aliases: [String] { get }
    /// How values are written, for help and messages, such as `1/250, 2.5", 30", bulb`.
    var valueSyntax: String { get }
    /// What kind of setting or reading the property is.
    var category: CameraPropertyCategory { get }

    /// What the property of `camera` shows now.
    func reading(of camera: any Camera) -> PropertyReading

    /// Sets the property of `camera` to the value `text` describes and waits until the camera shows it.
    ///
    /// - Throws: ``CommandFailure`` with exit status 65 when the camera does not take that value now, naming the
    ///   values it takes, or 66 when the camera does not report the property; a `ViewfinderError` when the camera
    ///   refuses or does not show the value in time.
    func set(_ text: String, on camera: any Camera) async throws

    /// Calls `handler` with the property's reading whenever its value or its settable values change.
    func observe(_ camera: any Camera, _ handler: @escaping @Sendable (PropertyReading) -> Void) -> ObservationToken
}
