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
            printError("\r\(label): \(done)/\(total)", terminator: done == total ? "\n" : "")
        } else if done > 0, done == total || done % 5000 == 0 {
            printError("\(label): \(done)/\(total)")
        }
    }
}
