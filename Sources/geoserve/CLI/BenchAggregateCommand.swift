import Aggregation
import ArgumentParser
import DomainKernel
import Foundation
import GeoserveApp
import Support

struct BenchAggregateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggregate",
        abstract: "Time counter recounts, one transition's counter delta, and releases; print one JSON line.",
        discussion: """
        --rows FILE reads report rows (little-endian: Int64 n, then Int32 area[n], Int32 day[n] as days \
        since 1970-01-01, Int8 kind[n] (0 covid, 1 misconduct), Int8 status[n] (0 pending, 1 verified, \
        2 rejected, 3 withdrawn)), untimed, and times Counters.recount over them: one basis (the GROUP BY \
        equivalent) and all bases as stored (each row's day is its occurred, submitted and, when verified, \
        verified day). --release-areas N times Statistics.compute and DisclosureControl.release for a \
        synthetic layer of N areas with 5 verified covid reports per area, Zipf-like over areas, over 90 \
        days, in 3 groups. Both also time Counters.delta for a pending → verified transition of a report \
        placed in 3 layers (median of 100 batches of 1,000). Times are medians over --repeat runs after one warm-up.
        """
    )

    @Option(help: ArgumentHelp("Report rows to recount.", valueName: "rows.bin"))
    var rows: String?

    @Option(help: "Areas of a synthetic layer to release.")
    var releaseAreas: Int?

    @Option(help: "Timed repetitions after one warm-up run.")
    var `repeat`: Int = 5

    func validate() throws {
        if `repeat` < 1 { throw ValidationError("--repeat must be at least 1") }
        if let releaseAreas, releaseAreas < 1 { throw ValidationError("--release-areas must be at least 1") }
    }

    func run() async throws {
        var fields: [(String, String)] = []
        if let rows {
            let columns = try Self.readRows(path: rows)
            let one = time { Counters.recount(columns, bases: [.occurred]).cellCount }
            let all = time { Counters.recount(columns).cellCount }
            fields += [("rows", "\(columns.count)"), ("one_basis_seconds", fmt(one.seconds)), ("one_basis_cells", "\(one.result)"),
                       ("all_bases_seconds", fmt(all.seconds)), ("all_bases_cells", "\(all.result)")]
        }
        if let releaseAreas {
            let (stats, recompute) = Self.syntheticLayer(areas: releaseAreas)
            let compute = time { recompute() }
            let control = DisclosureControl()
            let publicRelease = time { control.release(stats, for: .public) }
            let verifierRelease = time { control.release(stats, for: .verifier) }
            fields += [("release_areas", "\(releaseAreas)"), ("compute_seconds", fmt(compute.seconds)),
                       ("release_public_seconds", fmt(publicRelease.seconds)), ("release_verifier_seconds", fmt(verifierRelease.seconds))]
        }
        fields.append(("delta_ns", fmt(Self.deltaNanoseconds())))
        print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    }

    /// Runs `body` once to warm up, then `repeat` times; the median time and the last result.
    private func time<T>(_ body: () -> T) -> (seconds: Double, result: T) {
        let clock = ContinuousClock()
        var result = body()
        var times: [Double] = []
        for _ in 0..<`repeat` {
            let start = clock.now
            let latest = body()
            times.append((clock.now - start).seconds)
            result = latest      // the previous result is freed here, outside the timed run
        }
        return (times.median, result)
    }

    private func fmt(_ x: Double) -> String { String(format: "%.6g", x) }

    /// Reads the rows file into report columns: one layer, areas "0"…, no groups.
    static func readRows(path: String) throws -> ReportColumns {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard data.count >= 8 else { throw CommandFailure("\(path): too short") }
        let n = data.withUnsafeBytes { Int(Int64(littleEndian: $0.loadUnaligned(as: Int64.self))) }
        guard n >= 0, data.count == 8 + n * 10 else { throw CommandFailure("\(path): expected \(8 + max(0, n) * 10) bytes") }
        var columns = ReportColumns()
        columns.kinds = [.covid, .misconduct]
        columns.statuses = [.pending, .verified, .rejected, .withdrawn]
        columns.groups = [nil]
        data.withUnsafeBytes { raw in
            func int32(_ offset: Int) -> Int32 { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)) }
            var maxArea: Int32 = -1
            for i in 0..<n {
                let area = int32(8 + 4 * i), day = int32(8 + 4 * n + 4 * i)
                let kind = Int32(raw[8 + 8 * n + i]), status = Int32(raw[8 + 9 * n + i])
                maxArea = max(maxArea, area)
                columns.kind.append(kind)
                columns.status.append(status)
                columns.group.append(0)
                columns.occurredOn.append(day)
                columns.submittedOn.append(day)
                columns.verifiedOn.append(status == 1 ? day : ReportColumns.noDay)
                columns.placementReport.append(Int32(i))
                columns.placementPlace.append(area)
            }
            columns.places = (0...Int(max(maxArea, 0))).map { AreaRef(layer: "bench", areaID: "\($0)") }
        }
        return columns
    }

    /// A layer of `areas` areas with 5 verified covid reports per area, Zipf-like over areas (the
    /// k-th area gets about 1/k of the first's), uniform over 90 days, in 3 groups; the statistics,
    /// and a closure that recomputes them from the counters.
    static func syntheticLayer(areas: Int) -> (LayerStatistics, () -> LayerStatistics) {
        var random = SeededRandom(state: 2024)
        let end = Day(year: 2024, month: 6, day: 30)
        let ids = (0..<areas).map { "cell-\($0)" }
        let harmonic = (1...areas).reduce(0.0) { $0 + 1 / Double($1) }
        let groups = ["student", "faculty", "staff"].compactMap(BreakdownGroup.init)
        var reports: [ReportFacts] = []
        for _ in 0..<(5 * areas) {
            // Inverse of the Zipf (s = 1) distribution's CDF, approximated by the harmonic integral.
            let u = Double(random.next() >> 11) / Double(1 << 53)
            let area = min(areas - 1, max(0, Int(exp(u * harmonic - 0.5772)) - 1))
            let day = end.adding(days: -Int(random.next() % 90))
            reports.append(ReportFacts(kind: .covid, status: .verified, occurredOn: day, submittedOn: day, verifiedOn: day,
                                       group: groups[Int(random.next() % 3)], areas: [AreaRef(layer: "bench", areaID: ids[area])]))
        }
        let counters = CounterTable.recompute(from: reports).counts.map { ($0.key, $0.value) }
        let request = StatisticsRequest(layer: "bench", kind: .covid, basis: .occurred, end: end, groups: groups)
        let compute = { Statistics.compute(request, areaIDs: ids, counters: counters, denominators: [:]) }
        return (compute(), compute)
    }

    /// Nanoseconds per `Counters.delta` of a pending → verified transition in 3 layers: the
    /// median over 100 batches of 1,000 calls.
    static func deltaNanoseconds() -> Double {
        let day = Day(year: 2024, month: 5, day: 2)
        let areas = [AreaRef(layer: "halls", areaID: "H17"), AreaRef(layer: "zones", areaID: "Z3"), AreaRef(layer: "cells", areaID: "cell-1234")]
        let pending = ReportFacts(kind: .covid, status: .pending, occurredOn: day, submittedOn: day, group: BreakdownGroup("student"), areas: areas)
        var verified = pending
        verified.status = .verified
        verified.verifiedOn = day.adding(days: 1)
        let clock = ContinuousClock()
        var sink = 0
        var batches: [Double] = []
        for _ in 0..<101 {
            let start = clock.now
            for _ in 0..<1000 { sink &+= Counters.delta(from: pending, to: verified).count }
            batches.append((clock.now - start).seconds / 1000 * 1e9)
        }
        precondition(sink == 101 * 1000 * 15, "a pending → verified transition changes 5 cells in each of 3 layers")
        return Array(batches.dropFirst()).median
    }
}
