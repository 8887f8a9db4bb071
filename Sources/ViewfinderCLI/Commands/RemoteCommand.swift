import Viewfinder
import ViewfinderHTTP

/// `viewfinder remote`: a camera remote in the browser.
enum RemoteCommand: Command {
    static let spec = CommandSpec(
        name: "remote",
        abstract: "Control a camera from a browser: live view, settings, shutter, video and the card's pictures.",
        discussion: """
            Serves a page for one camera: its live view (each frame fetched when the page has drawn the last), \
            the exposure settings as menus of the values the camera takes now, which follow the camera when its \
            dials are turned, the shutter (with or without autofocus, or held open for as long as its button is \
            pressed, and let go when the page stops renewing the hold for --hold-lease seconds, as a page that is \
            closed or cut off does), focus steps, video recording with its timer, battery and shots left, and the card's files as thumbnails to download. When the camera goes away the page says \
            so, and the remote connects again when it is back. The page is served from this program and works \
            offline. Without --host, --gateway, --interface or --camera it runs the built-in simulated camera (a \
            Nikon with live view and video), to try it without a camera. It listens on loopback only, unless \
            --bind says otherwise, on a free port unless --port gives one, and prints the address to open, which \
            holds a random token: the page gets it as a cookie, and everything but the page needs it, so only who \
            has the address can use the camera, from this machine or another. Requests must name this machine \
            (--allow-host adds names). Files download as they come from the camera, however large. Press Ctrl-C \
            to stop.
            """,
        options: HTTPServer.Configuration.options(maximumConnections: 16) + CameraTarget.options + [
            .value(
                "hold-lease", "SECONDS",
                help: "How long a shutter held from the page stays held once the page stops renewing it.", default: "5")
        ],
        examples: [
            Example(commandLine: "remote", comment: "The remote of the built-in simulated camera."),
            Example(
                commandLine: "remote --host 192.168.1.1 --family nikon --port 8080",
                comment: "The remote of the Nikon at 192.168.1.1, at http://127.0.0.1:8080/ with the token it prints."),
            Example(
                commandLine: "remote --camera 'Canon EOS R6' --bind 0.0.0.0",
                comment: "A camera found by its name on the network, its remote open to other machines with its token."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        var configuration = RemoteServer.Configuration()
        configuration.http = try HTTPServer.Configuration(arguments, maximumConnections: 16, in: 4...64)
        configuration.holdLease = .seconds(try arguments.integer("hold-lease", default: 5, in: 2...60))
        let target = try await TargetCamera.connect(try CameraTarget(arguments))
        let remote = RemoteCamera(camera: target.camera)
        remote.start()
        let server: RemoteServer
        do {
            server = try RemoteServer(camera: remote, configuration: configuration)
            try server.start()
        } catch {
            await remote.stop()
            await target.close()
            throw error
        }
        Interrupt.beginHandling()
        Console.print("Remote of \(target.model) (\(target.place))")
        Console.print("Open \(server.url) in a browser; Ctrl-C stops.")
        server.http.printReachability()
        let releases = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                server.liveView.releaseIfIdle()
            }
        }
        await Interrupt.wait()
        releases.cancel()
        await offThePool { server.stop() }
        await remote.stop()
        await target.close()
        Console.print("stopped")
    }
}
