import DomainKernel
import Foundation
import Support

/// A folder of area index files, one per layer, named after the layer, its version and the key
/// of its content: a start loads the index a previous start saved instead of building it.
///
/// The files are derived data: deleting the folder costs one build per layer at the next start.
/// A file is used only when its key (every id and coordinate) and the digest of its tables
/// match, so a store restored from a backup, or a layer imported again under the same version
/// number, never meets a stale index. Files are written under a temporary name and renamed, so
/// a reader never sees half a file, and one torn by a crash fails its digest and is rebuilt;
/// several processes may share the folder.
public struct AreaIndexFiles: Sendable {
    public let directory: URL
    /// Indexes whose grid is smaller than this are built at each start and not saved: a campus
    /// of 42 halls builds in a millisecond.
    public let minimumGridBytes: Int

    public init(directory: URL, minimumGridBytes: Int = 4 << 20) {
        self.directory = directory
        self.minimumGridBytes = minimumGridBytes
    }

    /// Where an index came from, for the log.
    public enum Source: String, Sendable {
        /// Read back from the folder.
        case loaded
        /// Built, and saved for the next start.
        case saved
        /// Built and not saved (small, or the folder refused the file: see `problem`).
        case built
    }

    /// An index with the interior point of each of its areas, and how it was obtained.
    public struct Prepared: Sendable {
        public let index: AreaIndex
        /// A point inside each area, by the index's ordinal (`IndexedArea.interiorPoints`).
        public let interiorPoints: [Position?]
        public let source: Source
        /// Why an existing file was not used or a new one not written; nil when all went well.
        public let problem: String?
        /// The file the index was read from or saved to; nil when it was only built.
        public var file: URL? = nil
    }

    /// The index of a layer version's areas: loaded when a matching file exists, else built (and
    /// saved when large enough). Never fails: a file that cannot be read or written only costs a
    /// build, and says why in `problem`.
    public func prepare(layer: String, version: Int, areas: [IndexedArea]) -> Prepared {
        let sorted = AreaIndex.inIndexOrder(areas)
        let key = AreaIndex.contentKey(ofSorted: sorted, cellsPerSegment: AreaIndex.defaultCellsPerSegment)
        let url = directory.appendingPathComponent("\(layer).v\(version).\(key.hex).areaindex")
        var problem: String?
        if FileManager.default.fileExists(atPath: url.path) {
            do {
                let (index, interior) = try load(url, sorted: sorted, key: key)
                return Prepared(index: index, interiorPoints: interior, source: .loaded, problem: nil, file: url)
            } catch {
                problem = "\(error); rebuilt"
                try? FileManager.default.removeItem(at: url)
            }
        }
        let built = Self.build(sortedAreas: sorted)
        guard built.index.grid.byteCount >= minimumGridBytes else {
            return Prepared(index: built.index, interiorPoints: built.interiorPoints, source: .built, problem: problem)
        }
        do {
            try save(built.index, interiorPoints: built.interiorPoints, key: key, to: url, layer: layer)
            // The saved file replaces the tables just built, so that they leave resident memory.
            // Its digest was computed from those tables a moment ago: not read back to check it.
            let (index, _) = try load(url, sorted: sorted, key: key, checkDigest: false)
            return Prepared(index: index, interiorPoints: built.interiorPoints, source: .saved, problem: problem, file: url)
        } catch {
            return Prepared(index: built.index, interiorPoints: built.interiorPoints, source: .built, problem: "\(error)")
        }
    }

    /// The index and interior points built, with no folder involved (what `prepare` does
    /// without a file, and what a process without an index folder does at every load).
    public static func build(areas: [IndexedArea]) -> Prepared {
        build(sortedAreas: AreaIndex.inIndexOrder(areas))
    }

    private static func build(sortedAreas sorted: [IndexedArea]) -> Prepared {
        Prepared(index: AreaIndex(sortedAreas: sorted), interiorPoints: IndexedArea.interiorPoints(of: sorted), source: .built, problem: nil)
    }

    private func load(_ url: URL, sorted: [IndexedArea], key: ContentDigest, checkDigest: Bool = true) throws -> (AreaIndex, [Position?]) {
        let contents = try AreaIndexFile.read(url, key: key, areaCount: sorted.count, checkDigest: checkDigest)
        let grid = AreaGrid(frame: contents.frame, tables: contents.tables)
        return (AreaIndex(sortedAreas: sorted, boundingBox: contents.boundingBox, grid: grid), contents.interiorPoints)
    }

    /// Writes under a temporary name, renames into place, then removes the layer's other index
    /// files (earlier versions, and temporary files left by a crash more than an hour ago).
    private func save(_ index: AreaIndex, interiorPoints: [Position?], key: ContentDigest, to url: URL, layer: String) throws {
        _ = try WordFile.save(in: directory, name: url.lastPathComponent, layer: layer) { temporary in
            try AreaIndexFile.write(index, interiorPoints: interiorPoints, key: key, to: temporary)
        }
    }
}
