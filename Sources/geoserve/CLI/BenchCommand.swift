import GeoCore
import Aggregation
import ArgumentParser
import Foundation
import GeoserveApp

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure geoserve's own throughput.",
        subcommands: [BenchAssignCommand.self, BenchTilesCommand.self, BenchAggregateCommand.self, BenchPublicationCommand.self]
    )
}

struct BenchAssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Time index build and point assignment; print one JSON line.",
        discussion: """
        Fields: points, areas, threads, load_seconds (read and validate the GeoJSON, once), \
        build_seconds and assign_seconds (medians over --repeat runs, each run building a fresh \
        index), points_per_second (assignment alone), end_to_end_points_per_second (build and \
        assignment), unassigned, peak_rss_bytes.
        """
    )

    @OptionGroup var inputs: AssignmentInputs

    @Option(help: "Timed repetitions after one warm-up run.")
    var `repeat`: Int = 5

    @Option(help: ArgumentHelp("Also write the per-area counts as CSV.", valueName: "counts.csv"))
    var out: String?

    func validate() throws {
        if `repeat` < 1 { throw ValidationError("--repeat must be at least 1") }
    }

    func run() async throws {
        let clock = ContinuousClock()
        let loadStart = clock.now
        let areas = try inputs.loadAreas()
        let load = clock.now - loadStart
        let points = try PointFile.read(path: inputs.points)
        let threads = inputs.threadCount
        var builds: [Double] = []
        var assigns: [Double] = []
        var last: (AreaIndex, AssignmentCounts)?
        for run in 0...`repeat` {
            last = nil  // so that peak memory reflects one index, not two
            let t0 = clock.now
            let index = AreaIndex(areas: areas, threads: threads)
            let t1 = clock.now
            let counts = points.withUnsafeBufferPointer { index.count($0, threads: threads) }
            let t2 = clock.now
            if run > 0 {
                builds.append((t1 - t0).seconds)
                assigns.append((t2 - t1).seconds)
            }
            last = (index, counts)
        }
        let (index, counts) = last!
        if let out {
            let table = AreaCountTable(index: index, fileOrder: areas, counts: counts)
            try Data(table.csv.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        }
        let n = points.count / 2
        let build = builds.median, assign = assigns.median
        let fields: [(String, String)] = [
            ("points", "\(n)"), ("areas", "\(areas.count)"), ("threads", "\(threads)"),
            ("load_seconds", fmt(load.seconds)), ("build_seconds", fmt(build)), ("assign_seconds", fmt(assign)),
            ("points_per_second", fmt(Double(n) / assign)), ("end_to_end_points_per_second", fmt(Double(n) / (build + assign))),
            ("unassigned", "\(counts.unassigned)"), ("peak_rss_bytes", "\(PeakMemory.residentBytes())"),
        ]
        print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    }

    private func fmt(_ x: Double) -> String { String(format: "%.6g", x) }
}

/// The process's peak resident set size, from /proc/self/status (VmHWM).
enum PeakMemory {
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kb * 1024
        }
        return 0
    }
}
