import DomainKernel
import ReportVerification
import Testing

@Suite("where a report happened")
struct PlaceValidationTests {
    func misconduct(location: ReportDraft.Location?, area: ReportDraft.AreaChoice? = nil) -> ReportDraft {
        var d = Fixtures.misconduct()
        d.location = location
        d.area = area
        return d
    }

    @Test("a location or an area, exactly one")
    func exactlyOne() {
        #expect(problems(misconduct(location: nil)) == [P("location", .required, "a report needs a location or an area")])
        #expect(problems(misconduct(location: .init(lon: 1, lat: 2), area: .init(layer: "halls", id: "H01")))
                == [P("location", .conflicting, "give a location or an area, not both")])
    }

    @Test("a location becomes a location place; an area reference an area place")
    func places() throws {
        #expect(try misconduct(location: .init(lon: 180, lat: -90)).validated(now: Fixtures.now, timeZone: Fixtures.utc).place
                == .location(lon: 180, lat: -90, accuracyMetres: nil))
        #expect(try misconduct(location: nil, area: .init(layer: " zones ", id: "Z1")).validated(now: Fixtures.now, timeZone: Fixtures.utc).place
                == .area(AreaRef(layer: "zones", areaID: "Z1")))
    }

    @Test("both coordinates are required and checked with GeoCore's ranges, each on its own")
    func coordinates() {
        #expect(problems(misconduct(location: .init(lon: nil, lat: nil))) == [required("location.lon"), required("location.lat")])
        #expect(problems(misconduct(location: .init(lon: 181, lat: -95))) == [
            P("location.lon", .outOfRange, "longitude 181.0 is outside -180...180"),
            P("location.lat", .outOfRange, "latitude -95.0 is outside -90...90"),
        ])
        #expect(problems(misconduct(location: .init(lon: .infinity, lat: 41))) == [P("location.lon", .outOfRange, "coordinate is not a finite number")])
    }

    @Test("accuracy is 0 to 10 000 metres", arguments: [(0.0, true), (10_000, true), (-0.5, false), (10_000.5, false), (.nan, false)])
    func accuracy(metres: Double, ok: Bool) {
        let found = problems(misconduct(location: .init(lon: -87.6, lat: 41.8, accuracyM: metres)))
        #expect(found == (ok ? [] : [P("location.accuracyM", .outOfRange, "must be between 0 and 10000 metres")]))
    }

    @Test("an area reference needs a layer and an id of sane length")
    func areaReference() {
        #expect(problems(misconduct(location: nil, area: .init(layer: " ", id: nil))) == [required("area.layer"), required("area.id")])
        #expect(problems(misconduct(location: nil, area: .init(layer: "halls", id: String(repeating: "x", count: 129))))
                == [P("area.id", .tooLong, "must be at most 128 characters")])
    }

    @Test("every problem of a draft is listed at once, in field order")
    func everything() {
        var d = Fixtures.misconduct()
        d.location = .init(lon: 200, lat: 41, accuracyM: -1)
        d.occurredAt = "2099-01-01T00:00:00Z"
        d.officerDescription = nil
        d.witnesses = [.init(contact: "x", statement: String(repeating: "s", count: 5001))]
        d.attachments = ["a", "a"]
        #expect(problems(d).map(\.field) == ["location.lon", "location.accuracyM", "occurredAt", "officerDescription",
                                             "witnesses[0].statement", "attachments[1]"])
    }
}
