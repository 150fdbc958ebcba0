import GeoCore
import Aggregation
import ArgumentParser
import Foundation
import GeoserveApp

/// Options shared by `assign` and `bench assign`.
struct AssignmentInputs: ParsableArguments {
    @Option(help: ArgumentHelp("GeoJSON FeatureCollection of the areas.", valueName: "file.geojson"))
    var areas: String

    @Option(help: ArgumentHelp("Points: .f64 (little-endian float64 lon,lat pairs) or CSV with lon and lat columns.", valueName: "file"))
    var points: String

    @Option(name: .customLong("id-field"), help: "Property holding the area id (default: the feature's id member, else an id property).")
    var idField: String?

    @Option(help: "Worker threads (default: every core).")
    var threads: Int?

    @Flag(name: .customLong("skip-invalid"), help: "Leave out areas that cannot be repaired instead of failing.")
    var skipInvalid = false

    var threadCount: Int { max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount) }

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    /// Reads and validates the areas (in file order), failing on rejected features unless
    /// --skip-invalid.
    func loadAreas() throws -> [IndexedArea] {
        let file = try AreaFile.read(path: areas, idField: idField, nameField: nil, kind: .areas)
        let report = file.result.report
        if report.rejectedCount > 0 {
            for line in report.lines { printError(line) }
            if !skipInvalid {
                printError("\(report.rejectedCount) area(s) rejected (use --skip-invalid to go on without them)")
                throw ExitCode(1)
            }
        }
        return file.indexedAreas
    }
}

struct AssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Count points per area.",
        discussion: """
        Writes area_id,count for every area (zeros included) and a final 'unassigned' row. A point \
        on an edge or vertex shared by several areas counts for the area whose id sorts first \
        (byte order); a point in a hole counts for no area unless another area covers it.
        """
    )

    @OptionGroup var inputs: AssignmentInputs

    @Option(help: ArgumentHelp("Write the CSV here instead of standard output.", valueName: "counts.csv"))
    var out: String?

    func run() async throws {
        let areas = try inputs.loadAreas()
        let points = try PointFile.read(path: inputs.points)
        let index = AreaIndex(areas: areas, threads: inputs.threadCount)
        let counts = points.withUnsafeBufferPointer { index.count($0, threads: inputs.threadCount) }
        let table = AreaCountTable(index: index, fileOrder: areas, counts: counts)
        if let out {
            try Data(table.csv.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
            printError("\(points.count / 2) points, \(areas.count) areas, \(counts.unassigned) unassigned -> \(out)")
        } else {
            print(table.csv, terminator: "")
        }
    }
}

extension AreaCountTable {
    /// The counts of an index, with rows in the order the areas had in their file.
    init(index: AreaIndex, fileOrder: [IndexedArea], counts: AssignmentCounts) {
        let ids = fileOrder.map(\.id)
        self.init(areaIDs: ids, counts: ids.map { counts.perArea[index.ordinal(of: $0)!] }, unassigned: counts.unassigned)
    }
}
