import DomainKernel
import Foundation
import Storage
import Synchronization

/// A report file read, checked and placed part by part while the store stores the parts before
/// (`BulkReportStore.importReports`): reading a 1,000,000-row file no longer comes before the
/// database's work but beside it.
///
/// All or nothing as before: at the first bad row no further part is given; the rest of the file
/// is read for its problems, and `next` throws `Refused` with all of them, which rolls the
/// import back. As when a file was checked whole before anything was stored, the placement's
/// problems (an area that does not exist) are named only when every row reads well.
package final class ReportFileImport: ReportBatches {
    /// Why nothing was imported: every problem of the file, by line or feature.
    package struct Refused: Error {
        package let problems: [ReportFile.Problem]
    }

    /// What was handed to the store so far.
    package struct Tally: Sendable {
        package var reports = 0
        package var verified = 0
        package var placed = 0
    }

    private let state: Mutex<State>
    private let partSize: Int
    /// The area versions the rows are placed in: the store checks them at the commit, so it may
    /// take the rows before it takes its writer's order.
    package let placedOn: [String: Int]?

    private struct State {
        var reader: ReportFileReader
        let placement: ReportPlacement
        var placementProblems: [ReportFile.Problem] = []
        var tally = Tally()
        var progress = ProgressLine(label: "read")

        /// The entry placed as a report, or nil with its placement's problem recorded.
        mutating func record(_ e: ReportFile.Entry) -> ReportRecord? {
            do {
                let placed = try placement.place(e.location)
                return ReportRecord(id: e.id ?? TimeOrderedID.make(), kind: e.kind, status: e.status, version: 1, reporterID: nil,
                                    submittedAt: e.submittedAt, updatedAt: e.submittedAt, occurredOn: e.occurredOn, payload: e.payload,
                                    lon: placed.lon, lat: placed.lat, areas: placed.areas, verifiedOn: e.verifiedOn, group: e.group)
            } catch {
                placementProblems.append(.init(place: e.place, message: error.message))
                return nil
            }
        }
    }

    package init(_ reader: sending ReportFileReader, placement: ReportPlacement, partSize: Int = 4096) {
        placedOn = ReportPlacement.versions(of: placement.layers)
        state = Mutex(State(reader: reader, placement: placement))
        self.partSize = max(1, partSize)
    }

    package var tally: Tally { state.withLock { $0.tally } }

    package func next() throws -> [ReportRecord]? {
        try state.withLock { s in
            var records: [ReportRecord] = []
            records.reserveCapacity(partSize)
            while records.count < partSize, let entry = s.reader.next() {
                if let record = s.record(entry) { records.append(record) }
            }
            let (done, total) = s.reader.progress
            s.progress.update(done, total)
            guard s.reader.problems.isEmpty, s.placementProblems.isEmpty else {
                while let entry = s.reader.next() { _ = s.record(entry) }
                s.progress.update(total, total)
                throw Refused(problems: s.reader.problems.isEmpty ? s.placementProblems : s.reader.problems)
            }
            s.tally.reports += records.count
            s.tally.verified += records.count { $0.status == .verified }
            s.tally.placed += records.count { !$0.areas.isEmpty }
            return records.isEmpty ? nil : records
        }
    }
}
