/// The person the encounter happened to: race, gender and other comments only — the TripleR
/// form asks nothing else, so that a report cannot identify the victim by itself.
public struct Victim: Codable, Hashable, Sendable {
    /// Race, in the reporter's words (free text: no list would fit everyone).
    public var race: String?
    /// Gender, in the reporter's words.
    public var gender: String?
    /// Anything else the reporter wants to say about the victim.
    public var comments: String?

    /// Creates victim details.
    public init(race: String?, gender: String?, comments: String?) {
        self.race = race
        self.gender = gender
        self.comments = comments
    }
}
