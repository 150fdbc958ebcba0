import Crypto
import Foundation
import Glibc
import Storage
import Support

/// The installation's keys, kept in a file outside the database: the receipt key (anonymous
/// reporters' receipt tokens and idempotency-key digests derive from it) and the audit key (the
/// audit chain's HMAC). A copy of the database alone can then neither mint receipts nor rewrite
/// the audit trail undetectably.
///
/// The file is created on first start with mode 0600, atomically (written aside, then linked
/// into place: of several processes starting together, one file wins and all read it). The
/// store keeps only a fingerprint of the keys, so a process given another installation's file,
/// or none where one existed, refuses to start instead of issuing receipts no other process
/// accepts. Back the file up apart from the database.
package struct InstallationKeys: Sendable, RedactedDescription {
    let receipts: String
    let audit: String
    /// The first audit sequence number kept with the audit key.
    let auditFrom: Int

    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    /// Where the key file lives unless `--keys` says: beside a SQLite database. A PostgreSQL
    /// database has no folder of its own, and a default under the working folder would let a
    /// command run from elsewhere make a second key for the same database: its processes name
    /// the file in their configuration.
    package static func defaultPath(for location: StoreLocation) throws(Problem) -> String {
        switch location {
        case .sqlite(let path): return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("geoserve.keys").path
        case .postgres: throw Problem(description: "a PostgreSQL installation names its key file: --keys FILE or GEOSERVE_KEYS, the same file for every process and command (docs/postgresql.md)")
        }
    }

    /// Reads the key file, creating it when neither it nor the store's fingerprint exists, and
    /// hands the audit key to the store.
    package static func load(path: String, store: any GeoserveStore) async throws -> InstallationKeys {
        let keys: InstallationKeys
        if let existing = try read(path) {
            keys = existing
        } else if try await store.existingSecret(named: fingerprintName) != nil {
            // Another process of a new installation, started at the same moment, may have
            // created the file and then recorded its fingerprint since the read above.
            guard let created = try read(path) else {
                throw Problem(description: "the key file \(path) is missing, but this database was written with one: restore it from a backup, or copy it from the machine that created it (--keys)")
            }
            keys = created
        } else {
            // A store from before the key file keeps its receipt key, so receipts already handed out stay valid.
            let legacy = try await store.existingSecret(named: "receipts")
            let candidate = InstallationKeys(receipts: legacy ?? random(), audit: random(), auditFrom: try await store.auditHead().sequence + 1)
            keys = try write(candidate, to: path)
        }
        let stored = try await store.secret(named: fingerprintName, ifAbsent: keys.fingerprint)
        guard stored == keys.fingerprint else {
            throw Problem(description: "the key file \(path) belongs to another installation than this database (its fingerprint differs); use this installation's key file (--keys)")
        }
        // Only once the file holds it: a backup of the database no longer carries the receipt key.
        try await store.removeSecret(named: "receipts")
        try await keys.give(to: store)
        return keys
    }

    /// Gives the keys to `store`: another opening of a store `load` checked them against (the
    /// store opened again in its own zone, `StoreTimeZone`).
    package func give(to store: any GeoserveStore) async throws {
        try await store.useAuditKey(AuditKey(hex: audit, keyedFrom: auditFrom))
    }

    static let fingerprintName = "key_fingerprint"

    /// Identifies the keys without revealing them.
    var fingerprint: String {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Data(hex: audit)))
        mac.update(data: Data(("geoserve installation " + receipts).utf8))
        return mac.finalize().hexString
    }

    private static func random() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }.hexString
    }

    private var text: String {
        """
        # geoserve installation keys. Keep secret; back up apart from the database: without this
        # file, receipts already handed out stop working and the audit trail cannot be checked.
        receipts \(receipts)
        audit \(audit)
        audit-from \(auditFrom)

        """
    }

    /// The key that seals backups: derived from the audit key, so a copy of the database alone
    /// can neither read it nor forge a seal.
    var backupSealKey: SymmetricKey {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Data(hex: audit)))
        mac.update(data: Data("geoserve backup seal".utf8))
        return SymmetricKey(data: Data(mac.finalize()))
    }

    /// The key file at `path`; nil when there is none.
    package static func read(_ path: String) throws -> InstallationKeys? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw Problem(description: "cannot read the key file \(path)") }
            return nil
        }
        var values: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        let hex = { (v: String?) -> String? in v.flatMap { $0.utf8.count == 64 && $0.allSatisfy(\.isHexDigit) ? $0 : nil } }
        guard let receipts = hex(values["receipts"]), let audit = hex(values["audit"]), let from = values["audit-from"].flatMap(Int.init) else {
            throw Problem(description: "the key file \(path) is damaged: it needs receipts, audit (64 hex digits each) and audit-from lines")
        }
        return InstallationKeys(receipts: receipts, audit: audit, auditFrom: from)
    }

    /// Writes the file beside its place with mode 0600, syncs it and links it into place; when
    /// another process linked one first, that one is read instead.
    private static func write(_ keys: InstallationKeys, to path: String) throws -> InstallationKeys {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw Problem(description: "cannot create the key file \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(keys.text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        defer { unlink(temporary) }
        guard written == bytes.count, synced else { throw Problem(description: "cannot write the key file \(path)") }
        if link(temporary, path) != 0 {
            guard errno == EEXIST, let other = try read(path) else {
                throw Problem(description: "cannot create the key file \(path): \(String(cString: strerror(errno)))")
            }
            return other
        }
        return keys
    }
}
