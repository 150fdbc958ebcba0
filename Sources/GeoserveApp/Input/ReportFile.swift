import DomainKernel
import Foundation
import ReportVerification
import Storage

/// Reports to import, read from CSV (the columns of `ReportCSV`, as `geoserve export reports`
/// writes them) or GeoJSON (Point features whose properties carry the same names), and checked
/// row by row before anything is stored.
package struct ReportFile {
    /// What is wrong with one row, by its line (CSV) or feature number (GeoJSON).
    package struct Problem: CustomStringConvertible, Equatable {
        let place: String
        let message: String
        package var description: String { "\(place): \(message)" }

        package init(place: String, message: String) {
            self.place = place
            self.message = message
        }
    }

    /// One checked row, not yet placed in the layers.
    package struct Entry {
        package let place: String
        package let id: String?
        package let kind: ReportKind
        package let status: ReportStatus
        package let occurredOn: Day
        package let submittedAt: Date
        package let verifiedOn: Day?
        package let location: ReportPlace
        package let group: BreakdownGroup?
        package let payload: Data
    }

    /// The checked rows, or every problem found (nothing is imported while there is one).
    package let entries: [Entry]
    package let problems: [Problem]

    /// The longest an id may be; ids are the store's keys and appear in admin URLs.
    static let maxIDLength = 100

    /// Reads `data` (`.geojson`/`.json` as GeoJSON, anything else as CSV).
    package init(data: Data, geoJSON: Bool, now: Date, timeZone: TimeZone) {
        var reader = RowChecker(now: now, timeZone: timeZone)
        if geoJSON {
            reader.readGeoJSON(data)
        } else {
            reader.readCSV(data)
        }
        entries = reader.entries
        problems = reader.problems
    }
}

/// Checks rows one by one, gathering entries and problems.
private struct RowChecker {
    let now: Date
    let timeZone: TimeZone
    var entries: [ReportFile.Entry] = []
    var problems: [ReportFile.Problem] = []
    var ids = Set<String>()

    init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    mutating func readCSV(_ data: Data) {
        var rows = CSVRows(Array(data))
        guard let header = rows.next() else {
            problems.append(.init(place: "line 1", message: rows.failure?.description ?? "the file is empty; the first line names the columns"))
            return
        }
        let names = header.fields.map { ($0 ?? "").trimmingCharacters(in: .whitespaces).lowercased() }
        for name in names where !ReportCSV.columns.contains(name) {
            problems.append(.init(place: "line 1", message: "unknown column \"\(name)\"; the columns are \(ReportCSV.columns.joined(separator: ", "))"))
        }
        for required in ["kind", "occurred_on"] where !names.contains(required) {
            problems.append(.init(place: "line 1", message: "the column \"\(required)\" is missing"))
        }
        guard problems.isEmpty else { return }
        while let row = rows.next() {
            let place = "line \(row.line)"
            guard row.fields.count == names.count else {
                problems.append(.init(place: place, message: "\(row.fields.count) fields where the header names \(names.count)"))
                continue
            }
            var values: [String: String] = [:]
            for (name, value) in zip(names, row.fields) { if let value { values[name] = value } }
            check(values, place: place)
        }
        if let failure = rows.failure { problems.append(.init(place: "line \(failure.line)", message: failure.description)) }
    }

    mutating func readGeoJSON(_ data: Data) {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], root["type"] as? String == "FeatureCollection",
              let features = root["features"] as? [Any] else {
            problems.append(.init(place: "file", message: "not a GeoJSON FeatureCollection"))
            return
        }
        for (n, item) in features.enumerated() {
            let place = "feature \(n + 1)"
            guard let feature = item as? [String: Any] else {
                problems.append(.init(place: place, message: "not a GeoJSON Feature"))
                continue
            }
            var values: [String: String] = [:]
            var unknown = false
            for (name, value) in feature["properties"] as? [String: Any] ?? [:] {
                guard ReportCSV.columns.contains(name), name != "lon", name != "lat" else {
                    problems.append(.init(place: place, message: "unknown property \"\(name)\""))
                    unknown = true
                    continue
                }
                switch value {
                case let text as String: values[name] = text
                case is NSNull: break
                case let object where JSONSerialization.isValidJSONObject(object):
                    values[name] = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
                default: values[name] = "\(value)"
                }
            }
            guard !unknown else { continue }
            if let id = feature["id"] { values["id"] = "\(id)" }
            if let geometry = feature["geometry"] as? [String: Any] {
                guard geometry["type"] as? String == "Point", let c = geometry["coordinates"] as? [Double], c.count >= 2 else {
                    problems.append(.init(place: place, message: "the geometry is not a Point"))
                    continue
                }
                values["lon"] = "\(c[0])"
                values["lat"] = "\(c[1])"
            }
            check(values, place: place)
        }
    }

    /// Checks one row's values and records its entry or its problems.
    mutating func check(_ values: [String: String], place: String) {
        var messages: [String] = []
        let id = values["id"]
        if let id {
            if id.isEmpty || id.utf8.count > ReportFile.maxIDLength || id.utf8.contains(where: { !(0x21...0x7E).contains($0) }) {
                messages.append("id must be 1 to \(ReportFile.maxIDLength) visible ASCII characters")
            } else if !ids.insert(id).inserted {
                messages.append("id \(id) occurs twice in the file")
            }
        }
        let kind = values["kind"].flatMap(ReportKind.init(rawValue:))
        if kind == nil { messages.append("kind must be covid or misconduct") }
        let status = values["status"].map { ReportStatus(rawValue: $0) } ?? .pending
        if status == nil { messages.append("status must be pending, verified, rejected, revoked or withdrawn") }
        let today = Day.containing(now, in: timeZone)
        let occurredOn = values["occurred_on"].flatMap(Day.init(iso:))
        if occurredOn == nil {
            messages.append("occurred_on must be a date YYYY-MM-DD")
        } else if let day = occurredOn, day > today {
            messages.append("occurred_on is after today")
        }
        var submittedAt = now
        if let text = values["submitted_at"] {
            if let date = Timestamp.parseUTC(text) ?? (try? Instant.parse(text))?.date {
                submittedAt = date
                if date > now.addingTimeInterval(300) { messages.append("submitted_at is in the future") }
            } else {
                messages.append("submitted_at must be an RFC 3339 time such as 2026-11-02T21:30:00Z")
            }
        }
        var verifiedOn: Day?
        if let text = values["verified_on"] {
            verifiedOn = Day(iso: text)
            if verifiedOn == nil { messages.append("verified_on must be a date YYYY-MM-DD") }
            if let status, status != .verified, status != .revoked { messages.append("verified_on is only for verified or revoked reports") }
        } else if status == .verified || status == .revoked {
            // Verified without a day: counted as verified on the day it was submitted.
            verifiedOn = Day.containing(submittedAt, in: timeZone)
        }
        var location: ReportPlace?
        switch (values["lon"].flatMap(Double.init), values["lat"].flatMap(Double.init), values["area_layer"], values["area_id"]) {
        case (let lon?, let lat?, nil, nil):
            if (-180...180).contains(lon), (-90...90).contains(lat) {
                location = .location(lon: lon, lat: lat, accuracyMetres: nil)
            } else {
                messages.append("lon must be -180 to 180 and lat -90 to 90")
            }
        case (nil, nil, let layer?, let area?):
            location = .area(AreaRef(layer: layer, areaID: area))
        default:
            if values["lon"] != nil && values["lon"].flatMap(Double.init) == nil || values["lat"] != nil && values["lat"].flatMap(Double.init) == nil {
                messages.append("lon and lat must be numbers")
            } else {
                messages.append("give either lon and lat, or area_layer and area_id")
            }
        }
        let group = BreakdownGroup(values["group"] ?? "")
        if let kind, let group, !Report.breakdownGroups(of: kind).contains(group) {
            let groups = Report.breakdownGroups(of: kind).map(\.name)
            messages.append(groups.isEmpty ? "\(kind.rawValue) reports have no group" : "group must be one of \(groups.joined(separator: ", "))")
        }
        let payload = Data((values["payload"] ?? "{}").utf8)
        if !JSONSyntax.isObject(payload) {
            messages.append("payload must be a JSON object")
        }
        guard messages.isEmpty, let kind, let status, let occurredOn, let location else {
            problems += messages.map { .init(place: place, message: $0) }
            return
        }
        entries.append(ReportFile.Entry(place: place, id: id, kind: kind, status: status, occurredOn: occurredOn, submittedAt: submittedAt,
                                        verifiedOn: verifiedOn, location: location, group: group, payload: payload))
    }
}
