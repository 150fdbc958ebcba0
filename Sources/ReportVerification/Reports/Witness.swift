/// A witness of a police encounter: contact and statement only. TripleR promises that the report
/// "will not ask for specific information regarding witnesses … besides contact information
/// from witness or witness statements", so there is deliberately no separate name field; a
/// name, if the witness wants one known, is part of the contact.
public struct Witness: Codable, Hashable, Sendable {
    /// How to reach the witness (name, phone or e-mail, as the witness agreed).
    public var contact: String?
    /// What the witness saw, in their words.
    public var statement: String?

    /// Creates a witness; validation guarantees at least one of the two is present.
    public init(contact: String?, statement: String?) {
        self.contact = contact
        self.statement = statement
    }
}
