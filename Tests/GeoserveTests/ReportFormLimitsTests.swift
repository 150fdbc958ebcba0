import Foundation
import Hummingbird
import HummingbirdTesting
import ReportVerification
import Storage
import Testing
@testable import GeoserveApp

@Suite("report form limits")
struct ReportFormLimitsTests {
    /// Each limited field of the served form and the limit the validator applies to it.
    static let lengths: [String: Int] = [
        "notes": ReportLimits.longText, "officerDescription": ReportLimits.longText, "incidentDescription": ReportLimits.longText,
        "victim.comments": ReportLimits.longText, "officerName": ReportLimits.shortText, "badgeNumber": ReportLimits.shortText,
        "victim.race": ReportLimits.shortText, "victim.gender": ReportLimits.shortText,
    ]

    @Test("the served form's limits are ReportLimits': every maxlength, the age's range, the witnesses and the attachment formats")
    func servedForm() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let html = try await client.execute(uri: "/report", method: .get) { String(buffer: $0.body) }
            let fields = html.matches(of: /<(?:input|textarea)\b([^>]*)>/).map { String($0.1) }
            var seen: [String: Int] = [:]
            for attributes in fields {
                guard let name = Self.attribute("name", in: attributes), let maxlength = Self.attribute("maxlength", in: attributes) else { continue }
                seen[name] = Int(maxlength)
            }
            #expect(seen == Self.lengths)
            let age = try #require(fields.first { Self.attribute("name", in: $0) == "age" })
            #expect(Self.attribute("min", in: age) == String(ReportLimits.age.lowerBound))
            #expect(Self.attribute("max", in: age) == String(ReportLimits.age.upperBound))
            let files = try #require(fields.first { Self.attribute("id", in: $0) == "m-files" })
            #expect(Self.attribute("accept", in: files)?.split(separator: ",").map(String.init) == MediaType.allCases.map(\.rawValue))
            // The script adds witnesses' fields from these: as many and as long as the validator takes.
            let witnesses = try #require(html.firstMatch(of: /<div id="witnesses"([^>]*)>/)).1
            #expect(Self.attribute("data-max", in: String(witnesses)) == String(ReportLimits.witnesses))
            #expect(Self.attribute("data-contact-maxlength", in: String(witnesses)) == String(ReportLimits.shortText))
            #expect(Self.attribute("data-statement-maxlength", in: String(witnesses)) == String(ReportLimits.longText))
        }
    }

    @Test("neither the form's template nor its script holds a limit of its own")
    func noCopies() {
        let template = String(decoding: PackageResources.report_html, as: UTF8.self)
        #expect(template.matches(of: /(?:maxlength|min|max|data-max[a-z-]*)="[0-9][^"]*"/).map { String($0.output) } == [])
        let script = String(decoding: PackageResources.report_js, as: UTF8.self)
        #expect(script.matches(of: /maxlength: *"?[0-9]+|MAX_[A-Z]+ *= *[0-9]+/).map { String($0.output) } == [])
    }

    @Test("the console's forms take the validators' limits from the served page, and its script holds none of its own")
    func console() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let html = try await client.execute(uri: "/admin", method: .get) { String(buffer: $0.body) }
            let view = String(try #require(html.firstMatch(of: /<div id="view"([^>]*)>/)).1)
            let expected = [
                "data-alert-title": AlertRequest.maxTitle, "data-alert-message": AlertRequest.maxMessage,
                "data-resource-title": ResourceRequest.maxTitle, "data-resource-category": ResourceRequest.maxCategory,
                "data-resource-link": ResourceRequest.maxLink, "data-password-min": Credentials.minPasswordLength,
                "data-password-max": Credentials.maxPasswordLength,
            ]
            for (name, limit) in expected { #expect(Self.attribute(name, in: view) == String(limit), "\(name)") }
            #expect(Self.attribute("data-layer-pattern", in: view) == LayerName.htmlPattern)
        }
        let script = String(decoding: PackageResources.admin_js, as: UTF8.self)
        #expect(script.matches(of: /(?:maxlength|minlength): *"?[0-9]+|pattern: *"\[|at least [0-9]+ characters/).map { String($0.output) } == [])
    }

    private static func attribute(_ name: String, in attributes: String) -> String? {
        let pattern = try? Regex(#"(?:^|\s)"# + name + #"="([^"]*)""#, as: (Substring, Substring).self)
        return pattern.flatMap { attributes.firstMatch(of: $0) }.map { String($0.1) }
    }
}
