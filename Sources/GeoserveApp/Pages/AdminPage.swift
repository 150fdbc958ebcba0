/// The admin console at `/admin`: a shell (`admin.html`) that `admin.js` fills from the JSON API,
/// signed in with a page session (an `HttpOnly`, `SameSite=Strict` cookie; changes carry its CSRF
/// token). Verifiers see the queue; admins also alerts, resources, accounts and layers.
enum AdminPage {
    static let html = PageFrame.app(title: "Admin console", scripts: ["/assets/admin.js"], leaflet: true, noReferrer: true, bodyClass: "admin")
        .document(body: PageAssets.admin.render(ConsoleLimits.values))
}
