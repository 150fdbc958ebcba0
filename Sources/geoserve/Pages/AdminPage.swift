/// The admin console at `/admin`: a shell that `AdminScript` fills from the JSON API, signed in
/// with a page session (an `HttpOnly`, `SameSite=Strict` cookie; changes carry its CSRF token).
/// Verifiers see the queue; admins also alerts, resources, accounts and layers.
enum AdminPage {
    static let html = PageShell.document(title: "Admin console", script: "/assets/admin.js", leaflet: true, noReferrer: true, bodyClass: "admin", body: #"""
    <header class="top admin-top">
      <h1>Admin console</h1>
      <nav id="nav" aria-label="Sections" hidden>
        <a href="#queue" data-view="queue">Queue</a>
        <a href="#alerts" data-view="alerts" data-admin>Alerts</a>
        <a href="#resources" data-view="resources" data-admin>Resources</a>
        <a href="#accounts" data-view="accounts" data-admin>Accounts</a>
        <a href="#layers" data-view="layers" data-admin>Layers</a>
      </nav>
      <p id="who" class="caption" hidden><span id="who-name"></span> <button type="button" id="sign-out">Sign out</button></p>
    </header>
    <main>
      <form id="sign-in" class="report-form form-page" novalidate hidden>
        <h2>Sign in</h2>
        <div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required></div>
        <div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
        <button type="submit" class="primary">Sign in</button>
      </form>
      <p id="status" class="status" role="status" aria-live="polite"></p>
      <div id="view"></div>
    </main>
    """#)
}
