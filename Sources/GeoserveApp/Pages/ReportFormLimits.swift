import ReportVerification

/// What the report form lets a reporter type, filled into `report.html` from the numbers the
/// validator holds (`ReportLimits`) and the attachment formats the service recognises
/// (`MediaType`): the form's `maxlength`, `min`, `max` and `accept` and the witnesses' `data-`
/// attributes, which `report.js` reads. The form keeps no copy that could drift from the API.
enum ReportFormLimits {
    static var values: [String: PageTemplate.Value] {
        [
            "shortText": .text(String(ReportLimits.shortText)),
            "longText": .text(String(ReportLimits.longText)),
            "witnesses": .text(String(ReportLimits.witnesses)),
            "ageMin": .text(String(ReportLimits.age.lowerBound)),
            "ageMax": .text(String(ReportLimits.age.upperBound)),
            "attachmentTypes": .text(MediaType.allCases.map(\.rawValue).joined(separator: ",")),
        ]
    }
}
