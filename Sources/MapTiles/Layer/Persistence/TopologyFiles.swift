import Foundation
import GeoCore
import Support

/// A folder of tile topology files, one per layer, named after the layer, its version and the
/// key of its areas: the first tile after a start loads the topology an import or an earlier
/// process saved instead of building it. Kept beside the area index files (see `AreaIndexFiles`
/// for how such files are named, checked, replaced and shared between processes); deleting them
/// costs one build per layer.
public struct TopologyFiles: Sendable {
    public let directory: URL
    /// Layers with fewer areas are built each time and not saved: a campus builds in a millisecond.
    public let minimumAreas: Int

    public init(directory: URL, minimumAreas: Int = 10_000) {
        self.directory = directory
        self.minimumAreas = minimumAreas
    }

    /// The folder the area indexes are saved in: the two are derived from the same areas and
    /// kept, deleted and shared together.
    public init(beside indexFiles: AreaIndexFiles) {
        self.init(directory: indexFiles.directory)
    }

    /// A layer's topology, and whether it was loaded, built and saved, or built.
    public struct Prepared: Sendable {
        let topology: ArcTopology
        public let source: AreaIndexFiles.Source
        /// Why an existing file was not used or a new one not written; nil when all went well.
        public let problem: String?
        /// The file it was read from or saved to; nil when it was only built.
        public let file: URL?
    }

    /// The topology of a layer version's areas (given in the order its `TileLayer` will hold
    /// them): loaded when a matching file exists, else built, and saved when the layer is large
    /// enough. Never fails: a file that cannot be read or written only costs a build.
    public func prepare(layer: String, version: Int, areas: [IndexedArea]) -> Prepared {
        guard areas.count >= minimumAreas else { return Self.build(areas) }
        var d = ContentDigest()
        d.add(TopologyFile.format)
        IndexedArea.addContent(of: areas, to: &d)
        let name = "\(layer).v\(version).\(d.hex).topology"
        let url = directory.appendingPathComponent(name)
        var problem: String?
        if FileManager.default.fileExists(atPath: url.path) {
            do {
                return Prepared(topology: try TopologyFile.read(url, key: d, areaCount: areas.count), source: .loaded, problem: nil, file: url)
            } catch {
                problem = "\(error); rebuilt"
                try? FileManager.default.removeItem(at: url)
            }
        }
        let built = ArcTopology(full: ArcTopology.project(areas))
        do {
            let saved = try WordFile.save(in: directory, name: name, layer: layer) { try TopologyFile.write(built, key: d, to: $0) }
            return Prepared(topology: built, source: .saved, problem: problem, file: saved)
        } catch {
            return Prepared(topology: built, source: .built, problem: "\(error)", file: nil)
        }
    }

    /// The topology built, with no folder involved.
    public static func build(_ areas: [IndexedArea]) -> Prepared {
        Prepared(topology: ArcTopology(full: ArcTopology.project(areas)), source: .built, problem: nil, file: nil)
    }
}
