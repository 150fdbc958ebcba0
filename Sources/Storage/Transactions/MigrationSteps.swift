/// The steps of bringing a database's schema to this build's, each backend giving its SQL; the
/// rule is written once, below: a database newer than the build is refused, and each migration
/// is applied and recorded in a transaction of its own, in order.
public protocol MigrationSteps {
    /// The schema versions this build knows, in order.
    var versions: [Int] { get }
    /// The newest version the database has applied (0 for a new one); creates the record of
    /// applied versions when there is none.
    func appliedVersion() throws -> Int
    /// Applies one migration and records it, in one transaction.
    func apply(version: Int, at: String) throws
}

extension MigrationSteps {
    /// Applies what is missing; the caller excludes other processes migrating the same database.
    /// - Returns: the schema version the database has now.
    public func migrate() throws -> Int {
        let latest = versions.last ?? 0
        let current = try appliedVersion()
        guard current <= latest else { throw StorageError.schemaTooNew(found: current, supported: latest) }
        for version in versions where version > current { try apply(version: version, at: Timestamp.now()) }
        return latest
    }
}
