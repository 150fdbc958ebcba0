import Foundation

/// Writes a line to standard error (progress and reports go there, results to standard output).
package func printError(_ line: String, terminator: String = "\n") {
    FileHandle.standardError.write(Data((line + terminator).utf8))
}
