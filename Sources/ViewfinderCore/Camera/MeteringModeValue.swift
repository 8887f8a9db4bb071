/// How the camera measures the light of a scene to set its exposure.
public enum MeteringModeValue: CameraPropertyValue, CaseIterable {
    /// The whole frame, weighted evenly.
    case average
    /// The whole frame, weighted towards its centre.
    case centerWeighted
    /// Several spots across the frame, as Nikon's matrix metering reads it over PTP.
    case multiSpot
    /// The frame divided into zones that the camera weighs by their content, as Canon's evaluative metering.
    case evaluative
    /// A small area at the centre or at the focus point.
    case spot
    /// An area at the centre larger than a spot.
    case partial

    /// "Average", "Center-Weighted", "Multi-Spot", "Evaluative", "Spot" or "Partial".
    public var localizedDisplayValue: String {
        switch self {
        case .average: "Average"
        case .centerWeighted: "Center-Weighted"
        case .multiSpot: "Multi-Spot"
        case .evaluative: "Evaluative"
        case .spot: "Spot"
        case .partial: "Partial"
        }
    }
}
