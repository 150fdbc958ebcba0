import Foundation
import ReportVerification

/// An account as stored. The password hash never leaves the store except for verification.
public struct StoredAccount: Hashable, Sendable {
    public let id: String
    public let email: String
    public let role: Role
    public let disabled: Bool
    public let createdAt: Date
    /// The slow salted hash (bcrypt) of the password.
    public let passwordHash: String

    public init(id: String, email: String, role: Role, disabled: Bool, createdAt: Date, passwordHash: String) {
        self.id = id
        self.email = email
        self.role = role
        self.disabled = disabled
        self.createdAt = createdAt
        self.passwordHash = passwordHash
    }
}
