import ViewfinderCore

/// What a Lumix says about itself: `getinfo&type=capability` (its model, protocol version, commands and features)
/// and `getinfo&type=lens` (the lens's aperture and shutter speed limits).
struct LumixCapability: Sendable, Equatable {
    /// The model name the camera gives, such as `DC2702` for a TZ90.
    var model: String
    /// The version of the camera's protocol, such as `1.6`.
    var protocolVersion: String
    /// The camera's features (`camspec`), such as `oneshot_af_enable`.
    var specs: Set<String>
    /// The apertures the lens offers, widest first, in sixths of a stop from f/1; `nil` when the camera does not say.
    var apertures: ClosedRange<Int>?
    /// The shutter speeds the camera offers, in sixths of a stop from one second, shorter speeds positive (APEX
    /// Tv); `nil` when the camera does not say.
    var shutterSpeeds: ClosedRange<Int>?

    /// A capability with the given fields.
    init(
        model: String, protocolVersion: String = "", specs: Set<String> = [], apertures: ClosedRange<Int>? = nil,
        shutterSpeeds: ClosedRange<Int>? = nil
    ) {
        self.model = model
        self.protocolVersion = protocolVersion
        self.specs = specs
        self.apertures = apertures
        self.shutterSpeeds = shutterSpeeds
    }

    /// Asks the camera for its capability list and lens.
    ///
    /// - Throws: What a command throws; a camera that answers the capability list with an error word is read as a
    ///   Lumix of unknown model.
    init(_ exchange: @Sendable (String) async throws(ViewfinderError) -> LumixReply) async throws(ViewfinderError) {
        let reply = try await exchange("mode=getinfo&type=capability")
        self.init(
            model: reply.document?.first("modelname")?.text ?? "Lumix",
            protocolVersion: reply.document?.first("comm_proto_ver")?.text ?? "",
            specs: Set(reply.document?.elements.filter { $0.name == "camspec" }.map(\.text) ?? []))
        if let lens = try? await exchange("mode=getinfo&type=lens"), lens.result == "ok" {
            readLens(lens.fields)
        }
    }

    /// Reads the lens answer `ok,1536/256,882/256,2816/256,-512/256,…`: the narrowest and widest aperture, then the
    /// shortest and longest shutter speed, each an APEX value times 256 (the TZ90's f/8, f/3.3, 1/2000 and 4 s).
    mutating func readLens(_ fields: [String]) {
        let values = fields.prefix(4).map { LumixPropertyValues.apexSixths($0) }
        guard values.count == 4 else { return }
        if let narrowest = values[0], let widest = values[1], widest >= 0, widest <= narrowest {
            apertures = widest...narrowest
        }
        if let shortest = values[2], let longest = values[3], longest <= shortest {
            shutterSpeeds = longest...shortest
        }
    }
}
