import Storage

/// What the admin console's forms let an admin type, filled into `admin.html` as `data-`
/// attributes from the validators' own numbers, which `admin.js` reads: the notices' lengths,
/// the password's, and the layer-name rule. The console keeps no copy that could drift from the API.
enum ConsoleLimits {
    static var values: [String: PageTemplate.Value] {
        [
            "alertTitle": .text(String(AlertRequest.maxTitle)),
            "alertMessage": .text(String(AlertRequest.maxMessage)),
            "resourceTitle": .text(String(ResourceRequest.maxTitle)),
            "resourceCategory": .text(String(ResourceRequest.maxCategory)),
            "resourceLink": .text(String(ResourceRequest.maxLink)),
            "passwordMin": .text(String(Credentials.minPasswordLength)),
            "passwordMax": .text(String(Credentials.maxPasswordLength)),
            "layerPattern": .text(LayerName.htmlPattern),
        ]
    }
}
