import DomainKernel
import Support

extension Report {
    /// The report as stored: the JSON its `Codable` conformance reads back, keys sorted, written
    /// by hand because intake encodes one per request and `JSONEncoder` cost more than storing it.
    /// Optional members that are nil are left out, as the synthesized encoders do.
    public var storedJSON: [UInt8] {
        var out = JSONBuffer(capacity: 512)
        out.beginObject()
        switch self {
        case .covid(let r):
            out.key("covid")
            r.write(to: &out)
            out.member("kind", kind.rawValue)
        case .misconduct(let r):
            out.member("kind", kind.rawValue)
            out.key("misconduct")
            r.write(to: &out)
        }
        out.endObject()
        return out.bytes
    }
}

extension CovidReport {
    func write(to out: inout JSONBuffer) {
        out.beginObject()
        out.member("affiliation", affiliation.rawValue)
        if let age {
            out.key("age")
            out.int(age)
        }
        out.member("diagnosis", diagnosis?.rawValue)
        out.member("lastOnCampus", lastOnCampus.iso)
        out.member("notes", notes)
        out.member("phone", phone)
        out.key("place")
        place.write(to: &out)
        out.member("testDate", testDate.iso)
        out.endObject()
    }
}

extension MisconductReport {
    func write(to out: inout JSONBuffer) {
        out.beginObject()
        out.key("anonymous")
        out.bool(anonymous)
        out.key("attachments")
        out.beginArray()
        for a in attachments { out.string(a.rawValue) }
        out.endArray()
        out.member("badgeNumber", badgeNumber)
        out.member("incidentDescription", incidentDescription)
        out.member("occurredAt", occurredAt.text)
        out.member("officerDescription", officerDescription)
        out.member("officerName", officerName)
        out.key("place")
        place.write(to: &out)
        if let victim {
            out.key("victim")
            out.beginObject()
            out.member("comments", victim.comments)
            out.member("gender", victim.gender)
            out.member("race", victim.race)
            out.endObject()
        }
        out.key("witnesses")
        out.beginArray()
        for w in witnesses {
            out.beginObject()
            out.member("contact", w.contact)
            out.member("statement", w.statement)
            out.endObject()
        }
        out.endArray()
        out.endObject()
    }
}

extension ReportPlace {
    func write(to out: inout JSONBuffer) {
        out.beginObject()
        switch self {
        case .location(let lon, let lat, let accuracy):
            out.key("location")
            out.beginObject()
            out.member("accuracyM", accuracy)
            out.member("lat", lat)
            out.member("lon", lon)
            out.endObject()
        case .area(let ref):
            out.key("area")
            out.beginObject()
            out.member("id", ref.areaID)
            out.member("layer", ref.layer)
            out.endObject()
        }
        out.endObject()
    }
}
