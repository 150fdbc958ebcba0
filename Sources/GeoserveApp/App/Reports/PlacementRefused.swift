/// Why a report cannot be placed in the published areas.
package enum PlacementRefused: Refusal, Equatable {
    /// The location lies in no area of any area layer.
    case outsideAreas
    /// The report names an area layer the service does not have.
    case noLayer(String)
    /// The report names an area its layer does not have.
    case noArea(layer: String, id: String)

    package var kind: RefusalKind { .invalid }

    package var code: String {
        switch self {
        case .outsideAreas: "outside_areas"
        case .noLayer, .noArea: "invalid"
        }
    }

    package var message: String {
        switch self {
        case .outsideAreas: "the location lies outside every area this service counts reports in"
        case .noLayer(let layer): "no area layer named \(layer)"
        case .noArea(let layer, let id): "layer \(layer) has no area \(id)"
        }
    }

    package var field: String? {
        switch self {
        case .outsideAreas: "location"
        case .noLayer: "area.layer"
        case .noArea: "area.id"
        }
    }
}
