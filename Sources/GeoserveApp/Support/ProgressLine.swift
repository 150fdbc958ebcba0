import Foundation

/// Progress on standard error: one updating line on a terminal, occasional lines otherwise.
///
/// Shown by steps of the total (a thousandth on a terminal, a tenth otherwise), whatever unit
/// `done` counts and however often it is given: an import reports the bytes read once a part of
/// 4,096 rows, tiles once a tile. (Shown when `done` was a multiple of 1,000 or 5,000, a byte
/// offset given once a part almost never was, and a line rewritten for each of a million rows
/// kept the terminal busier than the import.)
package struct ProgressLine {
    let label: String
    private let interactive: Bool
    /// The last step shown.
    private var shown = -1

    package init(label: String, interactive: Bool = isatty(STDERR_FILENO) != 0) {
        self.label = label
        self.interactive = interactive
    }

    package mutating func update(_ done: Int, _ total: Int) {
        guard isDue(done, total) else { return }
        if interactive {
            printError("\r\(label): \(done)/\(total)", terminator: done >= total ? "\n" : "")
        } else {
            printError("\(label): \(done)/\(total)")
        }
    }

    /// Whether `done` of `total` reaches a step not shown yet (and counts it as shown). Totals
    /// under 1,000 are not worth a line.
    package mutating func isDue(_ done: Int, _ total: Int) -> Bool {
        guard total >= 1000, done > 0 else { return false }
        let steps = interactive ? 1000 : 10
        let step = done >= total ? steps : done * steps / total
        guard step > shown else { return false }
        shown = step
        return true
    }
}
