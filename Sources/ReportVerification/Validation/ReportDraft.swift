import DomainKernel

/// A report as a client submits it: every field optional and every value as sent, so that
/// validation can name each missing or wrong field instead of failing on the first one.
/// JSON names are the API's; `validated(now:timeZone:)` turns a draft into a `Report`.
public struct ReportDraft: Codable, Hashable, Sendable {
    /// A measured location as sent.
    public struct Location: Codable, Hashable, Sendable {
        /// Longitude, WGS 84 degrees.
        public var lon: Double?
        /// Latitude, WGS 84 degrees.
        public var lat: Double?
        /// Horizontal accuracy in metres, as the device reported it.
        public var accuracyM: Double?
        /// Creates a location.
        public init(lon: Double?, lat: Double?, accuracyM: Double? = nil) {
            self.lon = lon
            self.lat = lat
            self.accuracyM = accuracyM
        }
    }

    /// An area picked from a layer (e.g. a residence hall), as sent: either part may be missing
    /// until validation makes it a place (`DomainKernel.AreaRef` is the checked reference).
    public struct AreaChoice: Codable, Hashable, Sendable {
        /// The layer's name, e.g. `halls`.
        public var layer: String?
        /// The area's id in that layer, e.g. `H07`.
        public var id: String?
        /// Creates an area reference.
        public init(layer: String?, id: String?) {
            self.layer = layer
            self.id = id
        }
    }

    /// A witness as sent.
    public struct WitnessDraft: Codable, Hashable, Sendable {
        /// How to reach the witness.
        public var contact: String?
        /// What the witness saw.
        public var statement: String?
        /// Creates a witness draft.
        public init(contact: String?, statement: String?) {
            self.contact = contact
            self.statement = statement
        }
    }

    /// Victim details as sent.
    public struct VictimDraft: Codable, Hashable, Sendable {
        /// Race, free text.
        public var race: String?
        /// Gender, free text.
        public var gender: String?
        /// Other comments.
        public var comments: String?
        /// Creates victim details.
        public init(race: String?, gender: String?, comments: String?) {
            self.race = race
            self.gender = gender
            self.comments = comments
        }
    }

    /// `covid` or `misconduct`.
    public var kind: String?
    /// Where, as a point; exclusive with `area`.
    public var location: Location?
    /// Where, as a picked area; exclusive with `location`.
    public var area: AreaChoice?

    // covid
    /// `student`, `faculty` or `staff`.
    public var affiliation: String?
    /// Age in years.
    public var age: Int?
    /// Contact phone number.
    public var phone: String?
    /// Day of the positive test, `YYYY-MM-DD`.
    public var testDate: String?
    /// Last day on campus, `YYYY-MM-DD`.
    public var lastOnCampus: String?
    /// `confirmed` or `unconfirmed`.
    public var diagnosis: String?
    /// Free text for the verifier.
    public var notes: String?

    // misconduct
    /// ISO 8601 date-time with a zone, e.g. `2026-11-17T22:40:00Z`.
    public var occurredAt: String?
    /// The officer's name.
    public var officerName: String?
    /// The officer's badge number.
    public var badgeNumber: String?
    /// What the officer looked like.
    public var officerDescription: String?
    /// What happened.
    public var incidentDescription: String?
    /// Witnesses.
    public var witnesses: [WitnessDraft]?
    /// The victim.
    public var victim: VictimDraft?
    /// Ids of uploaded videos and photos.
    public var attachments: [String]?
    /// Whether to keep the reporter's account unlinked; true when absent.
    public var anonymous: Bool?

    /// An empty draft, filled field by field.
    public init() {}
}
