import GeoCore
import Foundation
import Hummingbird
import Storage
import Support

/// Point queries over the published layers that reveal nothing about reports:
/// `GET /v1/areas/containing?lon&lat` (the area of every area layer that covers the point) and
/// `GET /v1/places/nearest?lon&lat&k[&layer]` (the nearest sites of the point layers, e.g.
/// testing sites).
struct PlacesController {
    let catalog: LayerCatalog

    struct Containing: ResponseEncodable {
        struct Hit: Encodable {
            let layer: String
            let layerVersion: Int
            let id: String
            let name: String?
            let properties: [String: JSONValue]
        }
        let lon: Double
        let lat: Double
        let areas: [Hit]
    }

    struct Nearest: ResponseEncodable {
        struct Place: Encodable {
            let layer: String
            let id: String
            let name: String?
            let lon: Double
            let lat: Double
            let distanceMetres: Double
            let properties: [String: JSONValue]
        }
        let lon: Double
        let lat: Double
        let places: [Place]
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        v1.get("areas/containing") { request, _ in try containing(request) }
        v1.get("places/nearest") { request, _ in try nearest(request) }
    }

    func containing(_ request: Request) throws -> Containing {
        let q = try QueryValues(request, QueryParameters.containing)
        let (lon, lat) = (q.number(QueryParameters.lon)!, q.number(QueryParameters.lat)!)
        let hits = catalog.snapshot().values.sorted { $0.info.layer < $1.info.layer }.compactMap { layer -> Containing.Hit? in
            guard let index = layer.areaIndex, let i = index.locate(lon: lon, lat: lat) else { return nil }
            guard let f = layer.feature(id: index.areas[i].id) else { return nil }
            return .init(layer: layer.info.layer, layerVersion: layer.info.version, id: f.id, name: f.name, properties: layer.properties(of: f.id))
        }
        return Containing(lon: lon, lat: lat, areas: hits)
    }

    func nearest(_ request: Request) throws -> Nearest {
        let q = try QueryValues(request, QueryParameters.nearest)
        let (lon, lat) = (q.number(QueryParameters.lon)!, q.number(QueryParameters.lat)!)
        let k = q.int(QueryParameters.nearestCount)!
        var layers = catalog.snapshot().values.filter { $0.pointIndex != nil }
        if let name = q.text(QueryParameters.pointLayer) {
            layers = layers.filter { $0.info.layer == name }
            guard !layers.isEmpty else { throw APIError.notFound("no point layer \"\(name)\"") }
        }
        var found: [Nearest.Place] = []
        for layer in layers {
            for n in layer.pointIndex!.nearest(lon: lon, lat: lat, count: k) {
                let f = layer.feature(id: n.site.id)
                found.append(.init(layer: layer.info.layer, id: n.site.id, name: f?.name, lon: n.site.lon, lat: n.site.lat,
                                   distanceMetres: (n.distanceMetres * 10).rounded() / 10, properties: layer.properties(of: n.site.id)))
            }
        }
        found.sort { $0.distanceMetres != $1.distanceMetres ? $0.distanceMetres < $1.distanceMetres : ($0.layer, $0.id) < ($1.layer, $1.id) }
        return Nearest(lon: lon, lat: lat, places: Array(found.prefix(k)))
    }
}
