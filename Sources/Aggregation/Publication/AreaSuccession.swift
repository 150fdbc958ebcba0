/// One area of one version of a layer.
public struct VersionedArea: Hashable, Sendable, Comparable {
    public let layer: String
    public let version: Int
    public let areaID: String

    public init(layer: String, version: Int, areaID: String) {
        self.layer = layer
        self.version = version
        self.areaID = areaID
    }

    public static func < (lhs: VersionedArea, rhs: VersionedArea) -> Bool {
        (lhs.layer, lhs.version, lhs.areaID) < (rhs.layer, rhs.version, rhs.areaID)
    }
}

/// A question a change of the maps asks about a ledger line's origin: which area of `layer` at
/// `version` follows the area `from`. The store answers it from the maps alone (the area with
/// the same id and the same geometry, else the one holding `from`'s interior point), never from
/// where reports lie or how many, so the answer tells the public nothing it could not compute.
public struct AreaSuccession: Hashable, Sendable, Comparable {
    public let from: VersionedArea
    public let layer: String
    public let version: Int

    public init(from: VersionedArea, layer: String, version: Int) {
        self.from = from
        self.layer = layer
        self.version = version
    }

    public static func < (lhs: AreaSuccession, rhs: AreaSuccession) -> Bool {
        (lhs.layer, lhs.version, lhs.from) < (rhs.layer, rhs.version, rhs.from)
    }
}
