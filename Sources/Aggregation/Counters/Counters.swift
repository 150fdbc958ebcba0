import DomainKernel

/// The one definition of which counter cells a report adds to, shared by the incremental path
/// (a transition changes facts `old` → `new`) and the full recompute, so the two cannot drift.
public enum Counters {
    /// The cells one report adds 1 to: per area, its occurred and submitted days always (keyed by
    /// its current status), and its verified day only while it is verified.
    public static func contributions(of facts: ReportFacts) -> [CounterKey] {
        var keys: [CounterKey] = []
        keys.reserveCapacity(facts.areas.count * 3)
        for area in facts.areas {
            func key(_ basis: TimeBasis, _ day: Day) -> CounterKey {
                CounterKey(layer: area.layer, areaID: area.areaID, kind: facts.kind, status: facts.status,
                           basis: basis, day: day, group: facts.group)
            }
            keys.append(key(.occurred, facts.occurredOn))
            keys.append(key(.submitted, facts.submittedOn))
            if facts.status == .verified, let verifiedOn = facts.verifiedOn {
                keys.append(key(.verified, verifiedOn))
            }
        }
        return keys
    }

    /// The change to the counters when a report's facts go from `old` to `new` (nil for a report
    /// that did not exist or no longer counts); only nonzero entries, so an edit that changes
    /// nothing countable writes nothing.
    public static func delta(from old: ReportFacts?, to new: ReportFacts?) -> [CounterKey: Int] {
        var delta: [CounterKey: Int] = [:]
        if let old { for key in contributions(of: old) { delta[key, default: 0] -= 1 } }
        if let new { for key in contributions(of: new) { delta[key, default: 0] += 1 } }
        return delta.filter { $0.value != 0 }
    }
}
