import Aggregation
import DomainKernel
import Foundation
import HTTPTypes
import Storage
import Testing
@testable import GeoserveApp

/// A publication records the k it was made under, and every view of it names that k: the
/// threshold reported beside old numbers is theirs, not the one in force today.
@Suite("publication thresholds")
struct PublicationThresholdTests {
    @Test("with --k-public changed between restarts, each view names the k of the publication it shows, and the publication list gives each its own")
    func eachViewItsOwnK() async throws {
        var service = try await TestService()
        defer { service.remove() }
        let today = Day.containing(Date(), in: service.configuration.timeZone)
        let earlier = today.adding(days: -3)
        // An earlier publication made under k = 11, before the service restarts with k = 7.
        let store = try openStore(service.configuration.database)
        let made = try await store.publish(PublicationRequest(day: earlier, at: Date(),
                                                             planning: ScheduledPlanning(planner: PublicationPlanner(policy: .default))))
        #expect(made?.k == 11)
        service.configuration.disclosure.thresholds[.public] = 7
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let newest = try await client.publish(admin)
            let (_, list) = try await client.json(.get, "/v1/publications")
            let publications = list["publications"] as? [[String: Any]] ?? []
            #expect(publications.first { $0["id"] as? Int == 1 }?["k"] as? Int == 11, "\(publications)")
            #expect(publications.first { $0["id"] as? Int == newest }?["k"] as? Int == 7, "\(publications)")
            func threshold(_ query: String) async throws -> (Int?, Int?) {
                let (_, _, body) = try await client.getJSON("/collections/halls/items?limit=1" + query)
                let header = body["statistics"] as? [String: Any] ?? [:]
                return (header["threshold"] as? Int, (header["publication"] as? [String: Any])?["id"] as? Int)
            }
            let (oldK, oldID) = try await threshold("&datetime=\(earlier.iso)T12:00:00Z")
            #expect(oldID == 1 && oldK == 11, "the view as of the earlier day names the k it was made under")
            let (newK, newID) = try await threshold("")
            #expect(newID == newest && newK == 7)
        }
    }
}
