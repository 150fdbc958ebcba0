import GeoCore
import Foundation
import Storage
import Support

/// A GeoJSON layer file read, validated and ready to index or store.
package struct AreaFile {
    let path: String
    package let result: LayerReadResult

    /// Reads and validates a layer file, with a progress line for big files.
    package static func read(path: String, idField: String?, nameField: String?, kind: LayerGeometryKind? = nil, limits: AreaLimits = AreaLimits(),
                     showProgress: Bool = true) throws -> AreaFile {
        // Mapped where the file allows it, so that the pages read can be handed back; a pipe or a
        // file that cannot be mapped is read whole.
        let mapped = try? MappedFile(url: URL(fileURLWithPath: path))
        guard let data = mapped?.data ?? FileManager.default.contents(atPath: path) else {
            throw AreaFileProblem(description: "cannot read \(path)")
        }
        var progress = ProgressLine(label: "validating \(URL(fileURLWithPath: path).lastPathComponent)")
        do {
            let result = try withExtendedLifetime(mapped) {
                try LayerReader(idField: idField, nameField: nameField, kind: kind, limits: limits)
                    .read(data, progress: showProgress ? { progress.update($0, $1) } : nil, pagesRead: mapped.map { m in { m.releasePages() } })
            }
            return AreaFile(path: path, result: result)
        } catch {
            throw AreaFileProblem(description: "\(path): \(error)")
        }
    }

    /// The areas as the index takes them.
    package var indexedAreas: [IndexedArea] {
        result.features.map { IndexedArea(id: $0.id, polygons: $0.geometry.polygons) }
    }

    /// The layer as the store takes it.
    package func layerImport(name: String) -> LayerImport {
        LayerImport(layer: name, kind: result.kind == .points ? .points : .areas,
                    source: URL(fileURLWithPath: path).lastPathComponent,
                    areas: result.features.map { StoredArea(id: $0.id, name: $0.name, properties: $0.properties, geometry: $0.geometry) },
                    repairedCount: result.report.repairedCount, rejectedCount: result.report.rejectedCount)
    }
}

struct AreaFileProblem: Error, CustomStringConvertible {
    let description: String
}
