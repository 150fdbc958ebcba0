import DomainKernel
import ReportVerification
import Storage
import Support

/// The 201 body of a submission, written by hand: it is on the intake path of every report.
struct SubmittedReport {
    let id: String
    let kind: ReportKind
    let status: ReportStatus
    let areas: [AreaAssignment]
    /// For reports not linked to an account: the only key to the report's status. Shown once
    /// (and again on an idempotent retry).
    let receipt: String?

    var json: [UInt8] {
        var out = JSONBuffer(capacity: 256)
        out.beginObject()
        out.member("id", id)
        out.member("kind", kind.rawValue)
        out.member("status", status.rawValue)
        out.key("areas")
        out.beginArray()
        for a in areas {
            out.beginObject()
            out.member("layer", a.layer)
            out.key("layerVersion")
            out.int(a.layerVersion)
            out.member("areaID", a.areaID)
            out.endObject()
        }
        out.endArray()
        out.member("receipt", receipt)
        out.endObject()
        return out.bytes
    }
}
