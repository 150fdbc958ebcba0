import ArgumentParser
import Foundation
import GeoserveApp

/// Resolves an option: the flag if given, else the `GEOSERVE_*` variable, else the default.
enum EnvironmentDefault {
    static func string(_ flag: String?, _ variable: String, _ fallback: String) -> String {
        flag ?? ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
    }

    static func int(_ flag: Int?, _ variable: String, _ fallback: Int) throws -> Int {
        if let flag { return flag }
        guard let raw = ProcessInfo.processInfo.environment[variable], !raw.isEmpty else { return fallback }
        guard let v = Int(raw) else { throw ValidationError("\(variable)=\(raw) is not a whole number") }
        return v
    }
}
