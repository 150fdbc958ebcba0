import Aggregation
import DomainKernel
import Storage
import Synchronization

/// This process's copy of every publication and the blocks each released, caught up by the
/// data-version watcher (a publication moves the data version), so a public request reads a
/// publication without a store read. Blocks are only ever appended, so a refresh reads the new
/// publications' blocks and nothing else.
final class PublicationBook: Sendable {
    private let store: any PublicationStore
    private let state = Mutex(State())

    struct State {
        var publications: [PublicationRecord] = []
        /// Blocks in publication order; `ends[i]` is how many belong to `publications[0...i]`.
        var blocks: [PublishedBlock] = []
        var ends: [Int] = []
        /// One stored key per class, shared by all its blocks instead of one string each.
        var classes: [AreaClass: AreaClass] = [:]
    }

    init(store: any PublicationStore) {
        self.store = store
    }

    /// A book holding every publication so far, for commands that read one moment.
    static func loaded(from store: any PublicationStore) async throws -> PublicationBook {
        let book = PublicationBook(store: store)
        try await book.refresh()
        return book
    }

    /// Reads publications newer than the newest held, with their blocks.
    func refresh() async throws {
        let held = state.withLock { $0.publications.last?.id ?? 0 }
        let all = try await store.publications(after: held)
        guard !all.isEmpty else { return }
        let blocks = try await store.publishedBlocks(after: held)
        state.withLock { s in
            // Another refresh may have got there first; only what is still missing is added.
            let have = s.publications.last?.id ?? 0
            var next = blocks.startIndex    // blocks come in publication order
            for record in all where record.id > have {
                while next < blocks.endIndex, blocks[next].publication <= record.id {
                    let block = blocks[next]
                    next += 1
                    guard block.publication == record.id else { continue }
                    let shared = s.classes[block.key.areaClass] ?? block.key.areaClass
                    s.classes[shared] = shared
                    s.blocks.append(PublishedBlock(publication: block.publication, key: LedgerKey(kind: block.key.kind, areaClass: shared),
                                                   day: block.day, value: block.value))
                }
                s.publications.append(record)
                s.ends.append(s.blocks.count)
            }
        }
    }

    /// The newest publication; nil before the first.
    var latest: PublicationRecord? { state.withLock { $0.publications.last } }

    /// Every publication, oldest first.
    var all: [PublicationRecord] { state.withLock { $0.publications } }

    /// The newest publication whose day is not after `day` (nil `day`: the newest of all).
    func publication(onOrBefore day: Day?) -> PublicationRecord? {
        state.withLock { s in
            guard let day else { return s.publications.last }
            return s.publications.last { $0.day <= day }
        }
    }

    /// The blocks released by `publication` and every publication before it.
    func blocks(through publication: Int64) -> ArraySlice<PublishedBlock> {
        state.withLock { s in
            guard let index = s.publications.lastIndex(where: { $0.id <= publication }) else { return [] }
            return s.blocks[..<s.ends[index]]
        }
    }
}
