import Foundation

/// The reads and writes of storing and publishing an area layer's version, inside a transaction
/// the backend has opened; the scripts are written once, in this protocol's extensions.
public protocol LayerWrites: StoreWrites {
    /// Creates the layer unless it exists, and holds its row against other writers until the
    /// commit (two processes staging one layer number their versions one after the other).
    /// - Returns: whether this call created it, and the kind the layer holds.
    func claimLayer(_ name: String, kind: LayerKind, at: String) throws -> (created: Bool, kind: String?)
    /// The number the layer's next version takes.
    func nextVersion(layer: String) throws -> Int
    func insertVersion(_ info: LayerVersionInfo, at: String) throws
    func insertAreas(_ rows: LayerImport.Rows, layer: String, version: Int) throws
    func versionExists(layer: String, version: Int) throws -> Bool
    func setPublishedVersion(layer: String, version: Int) throws
    /// Every report with its area rows, for a re-assignment.
    func allReports() throws -> [ReportRecord]
    /// Moves reports' rows in `layer` to their areas of `version` (a nil area removes the row).
    func apply(_ moves: [ReassignmentPlan.Move], layer: String, version: Int) throws
}
