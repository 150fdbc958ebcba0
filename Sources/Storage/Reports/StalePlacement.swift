/// A report placed in area versions that are no longer the published ones by the time it is
/// committed: another process published a new version between the placement, made with this
/// process's snapshot of the layers, and the commit. Stored, the report would keep the old
/// version's areas (the new version's re-assignment had already read the reports), and count in
/// the old areas until the next import: 18 and 7 reports in 2 of 6 cycles of `import-areas`
/// under intake on PostgreSQL. Nothing is written; the caller places the report again in the
/// versions published now and submits it once more.
public struct StalePlacement: Error, Equatable, Sendable {
    /// The published version of each area layer, as the placement saw them and as the store has them.
    public let placedOn: [String: Int]
    public let published: [String: Int]
}

extension StalePlacement {
    /// Each layer whose version differs, as "layer placed → published" ("none" for a layer one
    /// side lacks), in name order: what an operator is told.
    public var changes: [String] {
        Set(placedOn.keys).union(published.keys).sorted().filter { placedOn[$0] != published[$0] }.map { layer in
            "\(layer) \(placedOn[layer].map(String.init) ?? "none") → \(published[layer].map(String.init) ?? "none")"
        }
    }

    /// Each area layer's published version (name, version), read by the intake transaction under
    /// the writer lock; the same SQL on both backends.
    public static let publishedVersionsSQL = "SELECT name, published_version FROM layers WHERE kind = 'areas' AND published_version IS NOT NULL"
}

extension ReportSubmission {
    /// Refuses a submission placed in other area versions than `published` (each area layer's
    /// published version, read under the writer lock): with the lock held, no version is
    /// published before the commit, so a report that passes is placed in the versions it is
    /// stored beside. A submission that carries no versions (imports, which place and commit
    /// under the same lock) is not checked.
    public func checkPlacement(published: [String: Int]) throws(StalePlacement) {
        guard let placedOn, placedOn != published else { return }
        throw StalePlacement(placedOn: placedOn, published: published)
    }
}
