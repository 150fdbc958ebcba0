import DomainKernel

extension DraftValidator {
    /// Where the report happened: a location or an area reference, exactly one.
    mutating func place(_ location: ReportDraft.Location?, _ area: ReportDraft.AreaChoice?) -> ReportPlace? {
        switch (location, area) {
        case (nil, nil):
            fail("location", .required, "a report needs a location or an area")
            return nil
        case (.some, .some):
            fail("location", .conflicting, "give a location or an area, not both")
            return nil
        case (.some(let l), nil):
            return self.location(l)
        case (nil, .some(let a)):
            let layer = text("area.layer", a.layer, max: ReportLimits.idText, required: true)
            let id = text("area.id", a.id, max: ReportLimits.idText, required: true)
            guard let layer, let id else { return nil }
            return .area(AreaRef(layer: layer, areaID: id))
        }
    }

    private mutating func location(_ l: ReportDraft.Location) -> ReportPlace? {
        // Each coordinate is checked on its own (against a neutral partner) so that both can be
        // reported at once; GeoCore's Position stays the one authority on what a coordinate is.
        var lon = l.lon, lat = l.lat
        if lon == nil { fail("location.lon", .required, "is required") }
        if lat == nil { fail("location.lat", .required, "is required") }
        if let x = lon {
            do { _ = try Position(lon: x, lat: 0) } catch { fail("location.lon", .outOfRange, error.description); lon = nil }
        }
        if let y = lat {
            do { _ = try Position(lon: 0, lat: y) } catch { fail("location.lat", .outOfRange, error.description); lat = nil }
        }
        var accuracyOK = true
        if let a = l.accuracyM, !(a.isFinite && a >= 0 && a <= ReportLimits.maxAccuracyMetres) {
            fail("location.accuracyM", .outOfRange, "must be between 0 and \(Int(ReportLimits.maxAccuracyMetres)) metres")
            accuracyOK = false
        }
        guard let lon, let lat, accuracyOK else { return nil }
        return .location(lon: lon, lat: lat, accuracyMetres: l.accuracyM)
    }
}
