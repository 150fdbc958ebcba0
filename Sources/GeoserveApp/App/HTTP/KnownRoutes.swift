import HTTPTypes
import Hummingbird
import Synchronization

/// The router's route patterns and their methods, recorded once every route is added, so that a
/// request for a known path with another method can be told apart from an unknown path.
final class KnownRoutes: Sendable {
    private struct Route: Sendable {
        let segments: [Substring]
        let method: HTTPRequest.Method
    }

    private let routes = Mutex<[Route]>([])

    /// Records the routes of a finished router.
    func record(_ descriptions: [Router<AppRequestContext>.RouteDescription]) {
        let recorded = descriptions.map { d in Route(segments: d.path.description.split(separator: "/"), method: d.method) }
        routes.withLock { $0 = recorded }
    }

    /// The methods the path answers to (HEAD wherever GET is), empty for an unknown path.
    func methods(forPath path: String) -> [HTTPRequest.Method] {
        let parts = path.split(separator: "/")
        var found: [HTTPRequest.Method] = routes.withLock { routes in
            routes.filter { route in
                route.segments.count == parts.count
                    && zip(route.segments, parts).allSatisfy { pattern, part in pattern.hasPrefix(":") || pattern.hasPrefix("{") || pattern == part }
            }.map(\.method)
        }
        if found.contains(.get) { found.append(.head) }
        return found
    }
}
