import ViewfinderCore
import ViewfinderImaging

extension SonyRemoteSimulator {
    /// The calls of the `avContent` service.
    static let avContentMethods = [
        "getVersions", "getMethodTypes", "getSchemeList", "getSourceList", "getContentCount", "getContentList",
    ]
    /// The API version each call of the `avContent` service takes, where it is not 1.0.
    static let avContentVersions = ["getContentCount": "1.2", "getContentList": "1.3"]
    /// The card, the one source of the `storage` scheme.
    static let source = "storage:memoryCard1"
    /// The most entries one `getContentList` page holds.
    static let maximumContentPage = 100

    /// The names of the stills on the card: those there at start, `DSC00001.JPG` on, then the pictures taken.
    func cardNames(_ state: State) -> [String] {
        let preloaded = (0..<configuration.picturesOnCard).map { index in
            let number = String(index + 1)
            return "DSC" + String(repeating: "0", count: max(0, 5 - number.count)) + number + ".JPG"
        }
        return preloaded + (0..<state.pictures.count).map { "pict\($0 + 1).JPG" }
    }

    /// The answer to one call of the `avContent` service, which serves only while the camera function is
    /// `Contents Transfer`.
    func avContentReply(to call: JSONValue, method: String, params: [JSONValue], id: JSONValue) -> JSONValue {
        guard Self.avContentMethods.contains(method) else { return Self.error(12, "No Such Method", id: id) }
        let version = call["version"]?.string ?? ""
        guard version == Self.avContentVersions[method] ?? "1.0" else {
            return Self.error(14, "Unsupported Version", id: id)
        }
        switch method {
        case "getVersions":
            return Self.result([Self.strings(["1.0", "1.1", "1.2", "1.3"])], id: id)
        case "getMethodTypes":
            let types = Self.avContentMethods.map { name in
                JSONValue.array([
                    .string(name), .array([]), .array([]), .string(Self.avContentVersions[name] ?? "1.0"),
                ])
            }
            return Self.result(types, id: id)
        default:
            break
        }
        let (serving, names) = state.withLock { state in
            (state.values["CameraFunction"] == Self.contentsTransfer && state.functionSwitch == nil, cardNames(state))
        }
        guard serving else { return Self.error(1, "Not Available Now", id: id) }
        let base = baseURL(port: state.withLock { $0.server?.port })
        let parameters = params.first ?? .null
        switch method {
        case "getSchemeList":
            return Self.result([.array([.object([("scheme", .string("storage"))])])], id: id)
        case "getSourceList":
            guard parameters["scheme"]?.string == "storage" else { return Self.error(3, "Illegal Argument", id: id) }
            return Self.result([.array([.object([("source", .string(Self.source))])])], id: id)
        case "getContentCount":
            guard parameters["uri"]?.string == Self.source else { return Self.error(3, "Illegal Argument", id: id) }
            let count = configuration.contentCount ?? names.count
            return Self.result([.object([("count", .number(Double(count)))])], id: id)
        default:
            guard parameters["uri"]?.string == Self.source, let start = parameters["stIdx"]?.integer, start >= 0,
                let count = parameters["cnt"]?.integer, (1...Self.maximumContentPage).contains(count)
            else { return Self.error(3, "Illegal Argument", id: id) }
            let page = names.indices.dropFirst(start).prefix(count + configuration.contentPageExcess).map { index in
                Self.contentEntry(names[index], number: index + 1, base: base)
            }
            configuration.log("content list from \(start), \(page.count) of \(count)")
            return Self.result([.array(page)], id: id)
        }
    }

    /// One still as `getContentList` gives it: its original at `/contents/`, its thumbnail at `/thumbnail/`.
    static func contentEntry(_ name: String, number: Int, base: String) -> JSONValue {
        let original = base + "/contents/" + name
        let thumbnail = base + "/thumbnail/" + name
        return .object([
            ("uri", .string("image:content?contentId=\(number)")), ("title", .string(name)),
            ("contentKind", .string("still")), ("createdTime", .string("2026-01-01T12:00:00+01:00")),
            ("folderNo", .string("100")), ("fileNo", .string(String(number))), ("isProtected", .string("false")),
            (
                "content",
                .object([
                    (
                        "original",
                        .array([
                            .object([
                                ("fileName", .string(name)), ("stillObject", .string("jpeg")),
                                ("url", .string(original)),
                            ])
                        ])
                    ),
                    ("largeUrl", .string(original)), ("smallUrl", .string(thumbnail)),
                    ("thumbnailUrl", .string(thumbnail)),
                ])
            ),
        ])
    }

    /// A still on the card at `/contents/NAME`, or its thumbnail at `/thumbnail/NAME`; `nil` for no such still.
    func contentAnswer(path: String) -> SimulatedHTTPAnswer? {
        let isThumbnail = path.hasPrefix("/thumbnail/")
        let name = String(path.drop { $0 != "/" }.dropFirst().drop { $0 != "/" }.dropFirst())
        let (known, taken) = state.withLock { state in (cardNames(state).contains(name), state.pictures[name]) }
        guard known else { return nil }
        if !isThumbnail, let taken {
            return SimulatedHTTPAnswer(contentType: "image/jpeg", body: taken)
        }
        let width = isThumbnail ? 160 : 640
        if let cached = state.withLock({ isThumbnail ? $0.thumbnail : $0.cardPicture }) {
            return SimulatedHTTPAnswer(contentType: "image/jpeg", body: cached)
        }
        guard let picture = try? TestScene.render(width: width, height: width * 3 / 4, lighting: .init(), time: 0),
            let jpeg = try? encoder.encode(picture, quality: 85)
        else { return nil }
        state.withLock { state in
            if isThumbnail { state.thumbnail = jpeg } else { state.cardPicture = jpeg }
        }
        return SimulatedHTTPAnswer(contentType: "image/jpeg", body: jpeg)
    }
}
