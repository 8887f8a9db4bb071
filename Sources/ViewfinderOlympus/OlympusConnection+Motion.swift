import ViewfinderCore
import ViewfinderDiscovery

extension OlympusConnection {
    /// Whether the camera lists `exec_takemotion` with `com`, such as `takeready`.
    func takesMotion(_ com: String) -> Bool {
        Self.takesMotion(com, in: commandList)
    }

    /// Whether `commandList` lists `exec_takemotion` with `com`.
    static func takesMotion(_ com: String, in commandList: OlympusCommandList) -> Bool {
        commandList.accepts("exec_takemotion", [("com", com)])
    }

    /// Focuses as a half press does (`exec_takemotion.cgi?com=takeready`, in recording mode); returns once the
    /// camera has taken the command.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not list `takeready`, or what a command
    ///   throws.
    public func engageAutoFocus() async throws {
        guard takesMotion("takeready") else {
            throw ViewfinderError(.notAvailable, "the Olympus at \(host) does not list exec_takemotion takeready")
        }
        try await inMode(.recording) { [self] in
            _ = try await command("exec_takemotion", [("com", "takeready")])
        }
    }

    /// Does nothing: `takeready` holds no button down, and the focus stays where it went until the next shot.
    public func disengageAutoFocus() async throws {}

    /// Starts recording video (`exec_takemotion.cgi?com=starttake`), which the camera does in its movie mode.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not list `starttake` and `stoptake`, or
    ///   when its shooting mode (`takemode`) is not `movie`, where `starttake` would take a picture instead; what a
    ///   command throws.
    public func startRecording() async throws {
        guard takesMotion("starttake"), takesMotion("stoptake") else {
            throw ViewfinderError(
                .notAvailable, "the Olympus at \(host) does not list exec_takemotion starttake and stoptake")
        }
        try await inMode(.recording) { [self] in
            let answer = try XMLElements(
                try await command("get_camprop", [("com", "get"), ("propname", "takemode")]),
                from: "the Olympus's shooting mode", maximumLength: 4096)
            let mode = answer.first("value")?.text ?? ""
            guard mode == "movie" else {
                throw ViewfinderError(
                    .notAvailable,
                    "the Olympus at \(host) records video in its movie mode, and its shooting mode is "
                        + "'\(mode.prefix(40))': set the exposure mode to movie first")
            }
            _ = try await command("exec_takemotion", [("com", "starttake")])
        }
        context.recordingStarted()
    }

    /// Stops recording video (`exec_takemotion.cgi?com=stoptake`).
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not list `stoptake`, or what a command
    ///   throws.
    public func stopRecording() async throws {
        guard takesMotion("stoptake") else {
            throw ViewfinderError(.notAvailable, "the Olympus at \(host) does not list exec_takemotion stoptake")
        }
        try await inMode(.recording) { [self] in
            _ = try await command("exec_takemotion", [("com", "stoptake")])
        }
        context.recordingStopped()
    }
}
