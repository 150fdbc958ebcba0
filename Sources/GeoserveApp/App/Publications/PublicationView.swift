import DomainKernel
import Foundation
import Hummingbird
import Storage

/// A publication as responses show it: in the publication list, in `POST /v1/publications`'s
/// answer, and in the `statistics.publication` member of published numbers.
struct PublicationView: ResponseCodable {
    let id: Int64
    let day: String
    let publishedAt: String
    /// The public k the publication's numbers were released under; absent for one made before
    /// publications recorded it.
    let k: Int?

    init(_ record: PublicationRecord) {
        id = record.id
        day = record.day.iso
        publishedAt = Timestamp.format(record.publishedAt)
        k = record.k
    }
}
