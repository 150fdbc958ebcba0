import Foundation

/// An operator's base map under the dashboard's numbers: an XYZ tile URL template and the
/// attribution its provider asks for. None by default, because the service must run without the
/// internet; when set, the pages' Content-Security-Policy lets images come from its origin too.
package struct BaseMap: Sendable, Equatable {
    package let urlTemplate: String
    package let attribution: String
    /// `scheme://host[:port]`, the only other origin the pages may load images from.
    let origin: String

    package struct Refused: Error, CustomStringConvertible {
        package let description: String
    }

    /// Checks an `https` (or `http`) template with `{z}`, `{x}` and `{y}`, and a non-empty attribution.
    package init(urlTemplate: String, attribution: String) throws(Refused) {
        for part in ["{z}", "{x}", "{y}"] where !urlTemplate.contains(part) {
            throw Refused(description: "the base map URL template needs \(part), as in https://tile.example.org/{z}/{x}/{y}.png")
        }
        // `{s}` (a subdomain) and the other placeholders are not part of a host URLComponents reads.
        let probe = urlTemplate.replacingOccurrences(of: "{s}", with: "a").replacingOccurrences(of: "{z}", with: "0")
            .replacingOccurrences(of: "{x}", with: "0").replacingOccurrences(of: "{y}", with: "0").replacingOccurrences(of: "{r}", with: "")
        guard let url = URLComponents(string: probe), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = url.host, !host.isEmpty else {
            throw Refused(description: "the base map URL template must be an absolute http or https URL")
        }
        guard !attribution.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Refused(description: "a base map needs its attribution (--basemap-attribution), as its provider's terms ask")
        }
        guard !urlTemplate.contains(where: { $0 == " " || $0 == ";" || $0 == "'" || $0 == "\"" }) else {
            throw Refused(description: "the base map URL template may not hold spaces, quotes or semicolons")
        }
        self.urlTemplate = urlTemplate
        self.attribution = attribution
        let wildcardHost = urlTemplate.contains("{s}") ? host.replacingOccurrences(of: "a.", with: "*.", options: .anchored) : host
        origin = "\(scheme)://\(wildcardHost)" + (url.port.map { ":\($0)" } ?? "")
    }
}
