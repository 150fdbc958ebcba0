import GeoCore
import DomainKernel
import ReportVerification
import Storage

/// Places a report in every published area layer: by its location, or — when it names an area —
/// in that area, and in the other layers by a point inside that area. A location inside no area
/// of any layer is refused (`PlacementRefused.outsideAreas`).
package struct ReportPlacement {
    let layers: [String: PublishedLayer]
    /// False for imports: an existing system's records outside today's layers are kept, for a
    /// later layer to place; a person reporting now is told instead.
    var refusesOutside = true

    package init(layers: [String: PublishedLayer], refusesOutside: Bool = true) {
        self.layers = layers
        self.refusesOutside = refusesOutside
    }

    /// The published version of every area layer of `layers`: what a placement in them is
    /// checked against at the commit (`ReportSubmission.checkPlacement`).
    package static func versions(of layers: [String: PublishedLayer]) -> [String: Int] {
        layers.filter { $0.value.areaIndex != nil }.mapValues(\.info.version)
    }

    /// The assignments and the exact location to store (nil for a report that names an area).
    package func place(_ place: ReportPlace) throws(PlacementRefused) -> (areas: [AreaAssignment], lon: Double?, lat: Double?) {
        switch place {
        case .location(let lon, let lat, _):
            let areas = assignments(lon: lon, lat: lat, except: nil)
            // Stored, such a report would be counted nowhere and shown nowhere, while its
            // reporter believed it counted: say so instead. With no area layer, nothing is checked.
            if refusesOutside, areas.isEmpty, layers.values.contains(where: { $0.areaIndex != nil }) {
                throw PlacementRefused.outsideAreas
            }
            return (areas, lon, lat)
        case .area(let ref):
            let layerName = ref.layer, areaID = ref.areaID
            guard let layer = layers[layerName], layer.areaIndex != nil else {
                throw PlacementRefused.noLayer(layerName)
            }
            guard let point = layer.interiorPoint(of: areaID) else {
                throw PlacementRefused.noArea(layer: layerName, id: areaID)
            }
            let named = AreaAssignment(layer: layerName, layerVersion: layer.info.version, areaID: areaID)
            return ([named] + assignments(lon: point.lon, lat: point.lat, except: layerName), nil, nil)
        }
    }

    private func assignments(lon: Double, lat: Double, except: String?) -> [AreaAssignment] {
        layers.values.sorted { $0.info.layer < $1.info.layer }.compactMap { layer in
            guard layer.info.layer != except, let index = layer.areaIndex, let hit = index.area(containingLon: lon, lat: lat) else { return nil }
            return AreaAssignment(layer: layer.info.layer, layerVersion: layer.info.version, areaID: hit.id)
        }
    }
}
