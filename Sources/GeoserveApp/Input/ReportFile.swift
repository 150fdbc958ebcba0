import DomainKernel
import Foundation
import ReportVerification
import Storage
import Support

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

    /// Reads `data` (`.geojson`/`.json` as GeoJSON, anything else as CSV) whole.
    package init(data: Data, geoJSON: Bool, now: Date, timeZone: TimeZone) {
        var reader = ReportFileReader(data: data, geoJSON: geoJSON, now: now, timeZone: timeZone)
        var entries: [Entry] = []
        while let entry = reader.next() { entries.append(entry) }
        self.entries = entries
        problems = reader.problems
    }
}

/// Reads a report file entry by entry, in file order, so that an import can store the first
/// rows while it reads the next: `next` gives each row that checks out and records the problems
/// of those that do not.
package struct ReportFileReader {
    /// Every problem so far: of the header at once, of rows as they are read.
    package private(set) var problems: [ReportFile.Problem] = []
    private var checker: RowChecker
    private var source: Source

    private enum Source {
        case csv(CSVRows, columns: [RowValues.Column])
        case geoJSON([Any], next: Int)
        /// Read to the end (or not readable at all), `total` bytes or features.
        case done(total: Int)
    }

    /// Reads `data`'s header (CSV) or parses it (GeoJSON); a file that cannot be read at all
    /// gives its problems here and no entries.
    package init(data: Data, geoJSON: Bool, now: Date, timeZone: TimeZone) {
        self.init(geoJSON: geoJSON, now: now, timeZone: timeZone, csv: { CSVRows(data) }, json: { data })
    }

    /// Reads a mapped file in place (see `init(data:geoJSON:now:timeZone:)`): the rows are not
    /// copied out of it, so a large CSV file is held once.
    package init(file: MappedFile, geoJSON: Bool, now: Date, timeZone: TimeZone) {
        self.init(geoJSON: geoJSON, now: now, timeZone: timeZone, csv: { CSVRows(file) }, json: {
            // Parsed before this initialiser returns, while `file` is held.
            Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: file.bytes.baseAddress!), count: file.bytes.count, deallocator: .none)
        })
    }

    private init(geoJSON: Bool, now: Date, timeZone: TimeZone, csv: () -> CSVRows, json: () -> Data) {
        checker = RowChecker(now: now, timeZone: timeZone)
        source = .done(total: 0)
        if geoJSON {
            // Checked as every other reader checks JSON first: Foundation's took a member named
            // twice, an unpaired surrogate and `1e400`, which read back as null.
            let document = json()
            do throws(JSONParser.SyntaxError) { try JSONParser.check(document) } catch {
                problems.append(.init(place: "file", message: "not valid JSON: \(error)"))
                return
            }
            guard let root = try? JSONSerialization.jsonObject(with: document) as? [String: Any], root["type"] as? String == "FeatureCollection",
                  let features = root["features"] as? [Any] else {
                problems.append(.init(place: "file", message: "not a GeoJSON FeatureCollection"))
                return
            }
            source = .geoJSON(features, next: 0)
            return
        }
        var rows = csv()
        guard let header = rows.next() else {
            problems.append(.init(place: "line 1", message: rows.failure?.description ?? "the file is empty; the first line names the columns"))
            return
        }
        let names = header.fields.map { ($0 ?? "").trimmingCharacters(in: .whitespaces).lowercased() }
        for name in names where RowValues.column(name) == nil {
            problems.append(.init(place: "line 1", message: "unknown column \"\(name)\"; the columns are \(ReportCSV.columns.joined(separator: ", "))"))
        }
        for required in ["kind", "occurred_on"] where !names.contains(required) {
            problems.append(.init(place: "line 1", message: "the column \"\(required)\" is missing"))
        }
        guard problems.isEmpty else { return }
        // Each header column's place in `RowValues`, resolved once: a row is read by position,
        // not through a dictionary of names (hashing 12 names a row was a fifth of a
        // 1,000,000-row import's reading).
        source = .csv(rows, columns: names.map { RowValues.column($0)! })  // every name was checked above
    }

    /// How far the reading is: bytes of a CSV file, features of a GeoJSON one.
    package var progress: (done: Int, total: Int) {
        switch source {
        case .csv(let rows, _): (rows.offset, rows.count)
        case .geoJSON(let features, let next): (next, features.count)
        case .done(let total): (total, total)
        }
    }

    /// The next row that checks out; nil at the end of the file.
    package mutating func next() -> ReportFile.Entry? {
        while true {
            switch source {
            case .done:
                return nil
            case .csv(var rows, let columns):
                source = .done(total: rows.count)  // the iterator is moved out while it advances
                guard let row = rows.next() else {
                    if let failure = rows.failure { problems.append(.init(place: "line \(failure.line)", message: failure.description)) }
                    return nil
                }
                source = .csv(rows, columns: columns)
                let place = "line \(row.line)"
                guard row.fields.count == columns.count else {
                    problems.append(.init(place: place, message: "\(row.fields.count) fields where the header names \(columns.count)"))
                    continue
                }
                var values = RowValues()
                for (column, value) in zip(columns, row.fields) where value != nil { values.set(column, value) }
                if let entry = checker.check(values, place: place, problems: &problems) { return entry }
            case .geoJSON(let features, let n):
                guard n < features.count else {
                    source = .done(total: features.count)
                    return nil
                }
                source = .geoJSON(features, next: n + 1)
                if let values = featureValues(features[n], place: "feature \(n + 1)"),
                   let entry = checker.check(values, place: "feature \(n + 1)", problems: &problems) {
                    return entry
                }
            }
        }
    }

    /// A feature's values, or nil with its problems recorded.
    private mutating func featureValues(_ item: Any, place: String) -> RowValues? {
        guard let feature = item as? [String: Any] else {
            problems.append(.init(place: place, message: "not a GeoJSON Feature"))
            return nil
        }
        var values = RowValues()
        var unknown = false
        for (name, value) in feature["properties"] as? [String: Any] ?? [:] {
            guard let column = RowValues.column(name), column != .lon, column != .lat else {
                problems.append(.init(place: place, message: "unknown property \"\(name)\""))
                unknown = true
                continue
            }
            switch value {
            case let text as String: values.set(column, text)
            case is NSNull: break
            case let object where JSONSerialization.isValidJSONObject(object):
                values.set(column, (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) })
            default: values.set(column, "\(value)")
            }
        }
        guard !unknown else { return nil }
        if let id = feature["id"] { values.id = "\(id)" }
        if let geometry = feature["geometry"] as? [String: Any] {
            guard geometry["type"] as? String == "Point", let c = geometry["coordinates"] as? [Double], c.count >= 2 else {
                problems.append(.init(place: place, message: "the geometry is not a Point"))
                return nil
            }
            values.lon = "\(c[0])"
            values.lat = "\(c[1])"
        }
        return values
    }
}

/// Checks rows one by one.
private struct RowChecker {
    let now: Date
    let timeZone: TimeZone
    var ids = Set<String>()

    /// The campus's day at `now`, worked out once rather than once a row.
    let today: Day

    init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
        today = Day.containing(now, in: timeZone)
    }

    /// One row's entry, or nil with its problems added to `problems`.
    mutating func check(_ values: RowValues, place: String, problems: inout [ReportFile.Problem]) -> ReportFile.Entry? {
        var messages: [String] = []
        let id = values.id
        if let id {
            if id.isEmpty || id.utf8.count > ReportFile.maxIDLength || id.utf8.contains(where: { !(0x21...0x7E).contains($0) }) {
                messages.append("id must be 1 to \(ReportFile.maxIDLength) visible ASCII characters")
            } else if !ids.insert(id).inserted {
                messages.append("id \(id) occurs twice in the file")
            }
        }
        let kind = values.kind.flatMap(ReportKind.init(rawValue:))
        if kind == nil { messages.append("kind must be covid or misconduct") }
        let status = values.status.map { ReportStatus(rawValue: $0) } ?? .pending
        if status == nil { messages.append("status must be pending, verified, rejected, revoked or withdrawn") }
        let occurredOn = values.occurredOn.flatMap(Day.init(iso:))
        if occurredOn == nil {
            messages.append("occurred_on must be a date YYYY-MM-DD")
        } else if let day = occurredOn, day > today {
            messages.append("occurred_on is after today")
        }
        var submittedAt = now
        if let text = values.submittedAt {
            if let date = Timestamp.parseUTC(text) ?? (try? Instant.parse(text))?.date {
                submittedAt = date
                if date > now.addingTimeInterval(300) { messages.append("submitted_at is in the future") }
            } else {
                messages.append("submitted_at must be an RFC 3339 time such as 2026-11-02T21:30:00Z")
            }
        }
        var verifiedOn: Day?
        if let text = values.verifiedOn {
            verifiedOn = Day(iso: text)
            if verifiedOn == nil { messages.append("verified_on must be a date YYYY-MM-DD") }
            if let status, status != .verified, status != .revoked { messages.append("verified_on is only for verified or revoked reports") }
        } else if status == .verified || status == .revoked {
            // Verified without a day: counted as verified on the day it was submitted.
            verifiedOn = Day.containing(submittedAt, in: timeZone)
        }
        var location: ReportPlace?
        switch (values.lon.flatMap(Double.init), values.lat.flatMap(Double.init), values.areaLayer, values.areaID) {
        case (let lon?, let lat?, nil, nil):
            if (-180...180).contains(lon), (-90...90).contains(lat) {
                location = .location(lon: lon, lat: lat, accuracyMetres: nil)
            } else {
                messages.append("lon must be -180 to 180 and lat -90 to 90")
            }
        case (nil, nil, let layer?, let area?):
            location = .area(AreaRef(layer: layer, areaID: area))
        default:
            if values.lon != nil && values.lon.flatMap(Double.init) == nil || values.lat != nil && values.lat.flatMap(Double.init) == nil {
                messages.append("lon and lat must be numbers")
            } else {
                messages.append("give either lon and lat, or area_layer and area_id")
            }
        }
        let group = BreakdownGroup(values.group ?? "")
        if let kind, let group, !Report.breakdownGroups(of: kind).contains(group) {
            let groups = Report.breakdownGroups(of: kind).map(\.name)
            messages.append(groups.isEmpty ? "\(kind.rawValue) reports have no group" : "group must be one of \(groups.joined(separator: ", "))")
        }
        let payload = Data((values.payload ?? "{}").utf8)
        do throws(JSONParser.SyntaxError) { try JSONParser.check(payload, object: true) } catch {
            messages.append(error.reason == "not a JSON object" ? "payload must be a JSON object" : "payload must be a JSON object (\(error.reason))")
        }
        guard messages.isEmpty, let kind, let status, let occurredOn, let location else {
            problems += messages.map { .init(place: place, message: $0) }
            return nil
        }
        return ReportFile.Entry(place: place, id: id, kind: kind, status: status, occurredOn: occurredOn, submittedAt: submittedAt,
                                verifiedOn: verifiedOn, location: location, group: group, payload: payload)
    }
}

/// One row's values by column, nil where the row has none.
private struct RowValues {
    var id, kind, status, occurredOn, submittedAt, verifiedOn, lon, lat, areaLayer, areaID, group, payload: String?

    /// The columns, by their names in `ReportCSV.columns`.
    enum Column: String {
        case id, kind, status, lon, lat, group, payload
        case occurredOn = "occurred_on", submittedAt = "submitted_at", verifiedOn = "verified_on", areaLayer = "area_layer", areaID = "area_id"
    }

    /// The column a name of `ReportCSV.columns` names, nil for any other name.
    static func column(_ name: String) -> Column? {
        ReportCSV.columns.contains(name) ? Column(rawValue: name) : nil
    }

    mutating func set(_ column: Column, _ value: String?) {
        switch column {
        case .id: id = value
        case .kind: kind = value
        case .status: status = value
        case .occurredOn: occurredOn = value
        case .submittedAt: submittedAt = value
        case .verifiedOn: verifiedOn = value
        case .lon: lon = value
        case .lat: lat = value
        case .areaLayer: areaLayer = value
        case .areaID: areaID = value
        case .group: group = value
        case .payload: payload = value
        }
    }
}
