import Aggregation
import DomainKernel

/// What a cached value was made from, the one key of every cache of the service (statistics
/// releases, feature fragments, tile paintings, encoded responses): the layer version, which
/// numbers it holds, the campus day its windows end on, and what selects it within those.
///
/// A new layer version, publication, data version or day makes new keys, so a cache never needs
/// invalidating and never serves what another version would not; old entries just age out.
/// `text` is the key's stable spelling, the same in every process, which ETags are derived from.
struct VersionedKey: Hashable, Sendable {
    let layer: String
    let layerVersion: Int
    let numbers: CachedNumbers
    /// The last day of the statistics windows.
    let day: Day
    let selector: CacheSelector

    var text: String { "\(layer)|\(layerVersion)|\(numbers.text)|\(day.iso)|\(selector.text)" }

    /// Bytes the key holds, for byte-bounded caches.
    var size: Int { layer.utf8.count + selector.text.utf8.count + 40 }

    /// The view this key is one version of: the same layer version, day and selector, whatever
    /// numbers it holds.
    var view: ViewKey { ViewKey(layer: layer, layerVersion: layerVersion, day: day, selector: selector) }
}

/// Which numbers a cached value holds.
enum CachedNumbers: Hashable, Sendable {
    /// A publication's, by id (0 before the first): public numbers move only when one is made.
    case publication(Int64)
    /// The live counters at a data version: verifiers' numbers move with every change.
    case live(dataVersion: Int64)

    var text: String {
        switch self {
        case .publication(let id): "p\(id)"
        case .live(let version): "d\(version)"
        }
    }
}

/// What selects a cached value within a layer version, its numbers and its day; each cache's
/// selector is built here, from parsed values, so two spellings of one request share an entry.
enum CacheSelector: Hashable, Sendable {
    /// Released statistics of a request. `generation` is the publication book's: a later
    /// publication can give an older one's lines another class.
    case release(kind: ReportKind?, basis: TimeBasis, audience: Audience, generation: Int)
    /// An encoded features response: the resource, who asks, the canonical query and the base of
    /// the links in it.
    case features(resource: String, audience: Audience, query: String, base: String)
    /// The classes a tile query paints areas with.
    case painting(TileQuery)
    /// An encoded tile response, by its request target (path and query as sent): a repeated
    /// request costs a lookup before anything is parsed.
    case tileRequest(String)

    var text: String {
        switch self {
        case .release(let kind, let basis, let audience, let generation):
            "release|\(kind?.rawValue ?? "*")|\(basis.rawValue)|\(audience.rawValue)|\(generation)"
        case .features(let resource, let audience, let query, let base): "features|\(resource)|\(audience.rawValue)|\(query)|\(base)"
        case .painting(let query): "painting|\(query.linkQuery)"
        case .tileRequest(let target): "tile|\(target)"
        }
    }
}

/// A cache key without its numbers: the slot a view's newest numbers are kept in.
struct ViewKey: Hashable, Sendable {
    let layer: String
    let layerVersion: Int
    let day: Day
    let selector: CacheSelector

    var size: Int { layer.utf8.count + selector.text.utf8.count + 32 }
}
