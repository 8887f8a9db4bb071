import ViewfinderCore

/// The live view magnifications of Nikon bodies: LiveViewImageZoomRatio's values, as libgphoto2 names them.
///
/// The values and their names vary by model: a D5000 steps through 25%, 33%, 50%, 66% and 100%, other bodies through
/// 25%, 50%, 100% and 200%; 0 is the whole picture on every body. A named level magnifies by an amount the camera does
/// not say, so its ``LiveViewZoomLevel/zoomFactor`` is 0.
enum NikonLiveViewZoom {
    /// The name the binding goes by, for setting LiveViewImageZoomRatio through it.
    static let propertyName = "liveViewZoomLevel"

    /// The levels of `model`, by LiveViewImageZoomRatio's value.
    static func levels(ofModel model: String) -> [Int64: LiveViewZoomLevel] {
        let names: [Int64: String] =
            model.contains("D5000")
            ? [1: "25%", 2: "33%", 3: "50%", 4: "66%", 5: "100%"] : [2: "25%", 4: "50%", 6: "100%", 7: "200%"]
        return names.mapValues { LiveViewZoomLevel(zoomFactor: 0, name: $0) }.merging([0: .none]) { $1 }
    }

    /// Reads LiveViewImageZoomRatio into ``Camera/liveViewZoomLevel``; a value `model` has no name for is left out.
    static func binding(model: String) -> PTPPropertyBinding {
        let levels = levels(ofModel: model)
        return PTPPropertyBinding(
            code: .nikonLiveViewImageZoomRatio, name: propertyName, displayName: "Live View Zoom"
        ) { description, connection in
            guard let value = description.currentValue.integerValue, let level = levels[value] else { return }
            connection.reportLiveViewZoomLevel(level)
        }
    }

    /// LiveViewImageZoomRatio's value for `level` on `model`: 0 for the whole picture, else the value of the level
    /// of that name.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` naming the levels `model` offers.
    static func value(of level: LiveViewZoomLevel, model: String) throws(ViewfinderError) -> Int64 {
        let levels = levels(ofModel: model)
        if level.zoomFactor == 1 && level.name == nil { return 0 }
        if let value = levels.first(where: { $0.value.name != nil && $0.value.name == level.name })?.key {
            return value
        }
        let offered = levels.sorted { $0.key < $1.key }.map(\.value.description)
        throw ViewfinderError(
            .invalidArgument,
            "\(model) magnifies live view to \(offered.dropLast().joined(separator: ", ")) or \(offered.last ?? ""), "
                + "not \(level)")
    }
}
