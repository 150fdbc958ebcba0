import DomainKernel

/// One feature's outcome in a layer import.
public struct FeatureReport: Hashable, Sendable {
    /// Position of the feature in the input (0-based).
    public let index: Int
    /// The area id, when one could be determined.
    public let id: String?
    /// What happened.
    public let outcome: Outcome

    public enum Outcome: Hashable, Sendable {
        case valid
        case repaired([AreaRepairNote])
        case rejected(String, [AreaRepairNote])
    }

    public init(index: Int, id: String?, outcome: Outcome) {
        self.index = index
        self.id = id
        self.outcome = outcome
    }
}

/// The validation report of one layer: per feature, what was wrong and what was done.
public struct LayerValidationReport: Hashable, Sendable {
    public var features: [FeatureReport]

    public init(features: [FeatureReport] = []) {
        self.features = features
    }

    public var validCount: Int { features.filter { if case .valid = $0.outcome { true } else { false } }.count }
    public var repairedCount: Int { features.filter { if case .repaired = $0.outcome { true } else { false } }.count }
    public var rejectedCount: Int { features.filter { if case .rejected = $0.outcome { true } else { false } }.count }

    /// Human-readable lines for the features that were repaired or rejected.
    public var lines: [String] {
        features.compactMap { f in
            let name = "feature \(f.index)" + (f.id.map { " (id \($0))" } ?? "")
            switch f.outcome {
            case .valid: return nil
            case .repaired(let notes):
                return "\(name): repaired — " + notes.map(\.description).joined(separator: "; ")
            case .rejected(let reason, let notes):
                return "\(name): REJECTED — \(reason)" + (notes.isEmpty ? "" : " (" + notes.map(\.description).joined(separator: "; ") + ")")
            }
        }
    }
}
