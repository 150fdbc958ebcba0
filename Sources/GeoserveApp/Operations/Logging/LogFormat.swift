import Foundation
import Logging

/// How the log is written: text for a person at a terminal, JSON lines for a pipeline.
package enum LogFormat: String, CaseIterable, Sendable {
    case auto, json, text

    /// `auto` is text when standard error is a terminal, JSON otherwise (a service manager, a pipe).
    var resolved: LogFormat {
        guard self == .auto else { return self }
        return isatty(STDERR_FILENO) == 1 ? .text : .json
    }

    /// Installs the format for every logger of the process (the service's and its libraries').
    /// Once per process: swift-log allows one bootstrap.
    package func bootstrap(level: Logger.Level) {
        let format = resolved
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = format == .json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
