import DomainKernel
import Foundation

/// RFC 4180 text for pandas, R and spreadsheets.
extension ExportTable {
    /// A header row, then one line per row; CRLF line ends, ISO dates, suppressed and unknown
    /// numbers as empty fields, `suppressed` as `true` / `false`.
    public func csv() -> String {
        var out = Self.columns.joined(separator: ",") + "\r\n"
        for row in rows {
            let rate: String = switch row.ratePer1000 {
            case .value(let r)?: String(format: "%.3f", r)
            default: ""
            }
            let fields = [
                AreaCountTable.field(row.areaID),
                row.bucketStart.iso,
                row.bucketEnd.iso,
                row.verified.value.map(String.init) ?? "",
                rate,
                row.verified.isSuppressed ? "true" : "false",
            ]
            out += fields.joined(separator: ",") + "\r\n"
        }
        return out
    }
}
