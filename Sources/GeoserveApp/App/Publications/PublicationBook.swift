import Aggregation
import DomainKernel
import Storage
import Synchronization

/// This process's copy of every publication and the blocks each released, caught up by the
/// data-version watcher (a publication moves the data version), so a public request reads a
/// publication without a store read. Blocks are only ever appended, so a refresh reads the new
/// publications' blocks and nothing else.
package final class PublicationBook: Sendable {
    private let store: any PublicationStore
    private let state = Mutex(State())

    struct State {
        var publications: [PublicationRecord] = []
        /// Blocks in publication order; `ends[i]` is how many belong to `publications[0...i]`.
        var blocks: [PublishedBlock] = []
        var ends: [Int] = []
        /// One stored key per class, shared by all its blocks instead of one string each.
        var classes: [AreaClass: AreaClass] = [:]
        var generation = 0
    }

    init(store: any PublicationStore) {
        self.store = store
    }

    /// A book holding every publication so far, for commands that read one moment.
    package static func loaded(from store: any PublicationStore) async throws -> PublicationBook {
        let book = PublicationBook(store: store)
        try await book.refresh()
        return book
    }

    /// Reads publications newer than the newest held, with their blocks. A publication that gave
    /// ledger lines another class (the areas changed) moved older blocks too: then every block
    /// is read again.
    func refresh() async throws {
        let held = state.withLock { $0.publications.last?.id ?? 0 }
        let all = try await store.publications(after: held)
        guard !all.isEmpty else { return }
        let again = held > 0 && all.contains { $0.linesMoved > 0 }
        let publications = again ? try await store.publications() : all
        let blocks = try await store.publishedBlocks(after: again ? 0 : held)
        state.withLock { s in
            if again { s = State() }
            // Another refresh may have got there first; only what is still missing is added.
            let have = s.publications.last?.id ?? 0
            var next = blocks.startIndex    // blocks come in publication order
            for record in publications where record.id > have {
                while next < blocks.endIndex, blocks[next].publication <= record.id {
                    let block = blocks[next]
                    next += 1
                    guard block.publication == record.id else { continue }
                    let shared = s.classes[block.key.areaClass] ?? block.key.areaClass
                    s.classes[shared] = shared
                    s.blocks.append(PublishedBlock(publication: block.publication, line: block.line, key: LedgerKey(kind: block.key.kind, areaClass: shared),
                                                   day: block.day, value: block.value))
                }
                s.publications.append(record)
                s.ends.append(s.blocks.count)
            }
            s.generation += 1
        }
    }

    /// Counts the refreshes that changed the book: cached releases of an older publication are
    /// keyed by it, since lines that took another class change what an older publication shows
    /// for the layers whose areas changed.
    var generation: Int { state.withLock { $0.generation } }

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

    /// The k `publication` (or the newest before it) was made under; nil when it recorded none
    /// (made before publications kept it) or there is none.
    func k(of publication: Int64) -> Int? {
        state.withLock { s in s.publications.last { $0.id <= publication }?.k }
    }

    /// The blocks released by `publication` and every publication before it.
    func blocks(through publication: Int64) -> ArraySlice<PublishedBlock> {
        state.withLock { s in
            guard let index = s.publications.lastIndex(where: { $0.id <= publication }) else { return [] }
            return s.blocks[..<s.ends[index]]
        }
    }
}
