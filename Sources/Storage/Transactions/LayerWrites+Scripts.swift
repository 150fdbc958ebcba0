import Foundation

extension LayerWrites {
    /// Stores a new version of a layer; nil when `onlyIfNew` and the layer exists.
    public func stage(_ layer: LayerImport, rows: LayerImport.Rows, onlyIfNew: Bool) throws -> LayerVersionInfo? {
        let date = Date()
        let now = Timestamp.format(date)
        let claimed = try claimLayer(layer.layer, kind: layer.kind, at: now)
        if onlyIfNew && !claimed.created { return nil }
        guard claimed.kind == layer.kind.rawValue else {
            throw StorageError.invalidImport("layer \"\(layer.layer)\" holds \(claimed.kind ?? "nothing"), not \(layer.kind.rawValue)")
        }
        let info = LayerVersionInfo(layer: layer.layer, version: try nextVersion(layer: layer.layer), kind: layer.kind,
                                    createdAt: Timestamp.rounded(date), source: layer.source, featureCount: rows.count,
                                    repairedCount: layer.repairedCount, rejectedCount: layer.rejectedCount)
        try insertVersion(info, at: now)
        try insertAreas(rows, layer: layer.layer, version: info.version)
        return info
    }

    /// Makes a stored version current, moving every report to its area in it when `resolve` is
    /// given (the caller's transaction excludes every other report change).
    /// - Returns: how many reports changed area.
    public func publish(layer: String, version: Int, resolve: AreaResolver?) throws -> Int {
        try setPublishedVersion(layer: layer, version: version)
        var moved = 0
        if let resolve {
            // Read first, write after: the plan's moves change the area rows it reads.
            let plan = ReassignmentPlan(layer: layer, version: version, reports: try allReports(), resolve: resolve, zone: zone)
            try apply(plan.moves, layer: layer, version: version)
            try writeCounters(plan.counters)
            moved = plan.moved
        }
        try bumpDataVersion()
        return moved
    }

    /// Publishes a version stored earlier; `StorageError.unknownVersion` when there is none.
    public func publishStored(layer: String, version: Int, resolve: AreaResolver?) throws -> Int {
        guard try versionExists(layer: layer, version: version) else { throw StorageError.unknownVersion(layer: layer, version: version) }
        return try publish(layer: layer, version: version, resolve: resolve)
    }

    /// Stores a new version and publishes it at once.
    public func importAndPublish(_ layer: LayerImport, rows: LayerImport.Rows, resolve: AreaResolver?) throws -> (info: LayerVersionInfo, moved: Int) {
        // Never nil: a layer that may exist is not refused as existing.
        let info = try stage(layer, rows: rows, onlyIfNew: false)!
        return (info, try publish(layer: info.layer, version: info.version, resolve: resolve))
    }

    /// Imports a layer that does not exist yet and publishes it; nil when it exists.
    public func importNewLayer(_ layer: LayerImport, rows: LayerImport.Rows) throws -> LayerVersionInfo? {
        guard let info = try stage(layer, rows: rows, onlyIfNew: true) else { return nil }
        _ = try publish(layer: info.layer, version: info.version, resolve: nil)
        return info
    }
}
