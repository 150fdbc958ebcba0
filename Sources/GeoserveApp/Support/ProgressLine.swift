import Foundation

/// Progress on standard error: one updating line on a terminal, occasional lines otherwise.
package struct ProgressLine {
    let label: String
    private let interactive = isatty(STDERR_FILENO) != 0

    package init(label: String) {
        self.label = label
    }

    package func update(_ done: Int, _ total: Int) {
        guard total >= 1000 else { return }
        if interactive {
            // Every thousandth: a line rewritten for each of a million rows kept the terminal busier than the import.
            guard done == total || done % 1000 == 0 else { return }
            printError("\r\(label): \(done)/\(total)", terminator: done == total ? "\n" : "")
        } else if done > 0, done == total || done % 5000 == 0 {
            printError("\(label): \(done)/\(total)")
        }
    }
}
