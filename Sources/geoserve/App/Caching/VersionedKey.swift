import DomainKernel

/// What a cached value was made from, the one key of every cache of the service (statistics
/// releases, feature fragments, tile paintings, encoded responses): the layer version and the data
/// version it was computed at, the campus day its windows end on, and what selects it within those
/// (resource, audience, query).
///
/// A new layer version, data version or day makes new keys, so a cache never needs invalidating
/// and never serves what another version would not; old entries just age out. `text` is the
/// key's stable spelling, the same in every process, which ETags are derived from.
struct VersionedKey: Hashable, Sendable {
    let layer: String
    let layerVersion: Int
    let dataVersion: Int64
    /// The last day of the statistics windows.
    let day: Day
    /// Everything else the value depends on, canonically spelt.
    let selector: String

    var text: String { "\(layer)|\(layerVersion)|\(dataVersion)|\(day.iso)|\(selector)" }

    /// Bytes the key holds, for byte-bounded caches.
    var size: Int { layer.utf8.count + selector.utf8.count + 40 }
}
