import GeoCore
import Storage

/// Where reports go when a layer gets a new version: by their location; a report that named an
/// area of this layer keeps it while the area exists; one that named an area of another layer
/// goes where that area's interior point falls, as at intake (`ReportPlacement`).
enum LayerReassignment {
    static func resolver(for layer: PublishedLayer, others: [String: PublishedLayer]) -> AreaResolver {
        { position in
            guard let index = layer.areaIndex else { return nil }
            if let lon = position.lon, let lat = position.lat { return index.area(containingLon: lon, lat: lat)?.id }
            guard let namedLayer = position.namedLayer, let namedArea = position.namedArea else { return nil }
            if namedLayer == layer.info.layer { return index.ordinal(of: namedArea) != nil ? namedArea : nil }
            guard let point = others[namedLayer]?.interiorPoint(of: namedArea) else { return nil }
            return index.area(containingLon: point.lon, lat: point.lat)?.id
        }
    }

    /// Stages a layer and publishes it with every report re-assigned, in one transaction.
    static func importLayer(_ layer: LayerImport, into store: any AreaStore) async throws -> (info: LayerVersionInfo, moved: Int) {
        let info = try await store.stage(layer)
        guard layer.kind == .areas else {
            try await store.publish(layer: info.layer, version: info.version)
            return (info, 0)
        }
        let catalog = LayerCatalog()
        try await catalog.refresh(from: store)
        let published = PublishedLayer(info: info, features: try await store.areas(layer: info.layer, version: info.version))
        let moved = try await store.publish(layer: info.layer, version: info.version,
                                            resolve: resolver(for: published, others: catalog.snapshot()))
        return (info, moved)
    }
}
