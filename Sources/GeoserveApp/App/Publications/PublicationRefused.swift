import DomainKernel

/// Why a publication cannot be made on the day asked for.
enum PublicationRefused: Refusal, Equatable {
    /// Publications are dated today or earlier in the service's zone.
    case afterToday(today: Day, zone: String)
    /// Publications are made in the order of their days.
    case beforeLatest(latest: Day)

    var kind: RefusalKind {
        switch self {
        case .afterToday: .badParameter
        case .beforeLatest: .conflict
        }
    }

    var code: String {
        switch self {
        case .afterToday: "bad_parameter"
        case .beforeLatest: "publication_out_of_order"
        }
    }

    var message: String {
        switch self {
        case .afterToday(let today, let zone): "a publication cannot be dated after today (\(today.iso) in \(zone))"
        case .beforeLatest(let latest): "the latest publication is dated \(latest.iso); a publication cannot be dated before it"
        }
    }

    var field: String? {
        switch self {
        case .afterToday: "day"
        case .beforeLatest: nil
        }
    }
}
