/// A pointer into a buffer that several workers write at disjoint indices.
///
/// `@unchecked Sendable` is sound here because every user partitions the index range so that no
/// two workers touch the same element, and the buffer outlives the parallel section (the owner
/// waits for `concurrentPerform` to return before reading or freeing it).
struct DisjointWrites<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>

    @inline(__always)
    func write(_ value: consuming Element, at index: Int) {
        (base + index).initialize(to: value)
    }

    @inline(__always)
    func update(at index: Int, _ body: (inout Element) -> Void) {
        body(&base[index])
    }
}

/// A read-only pointer shared by parallel workers; the owner keeps the memory alive and
/// unmodified until they finish, which is what makes `@unchecked Sendable` sound.
struct SharedReads<Element>: @unchecked Sendable {
    let base: UnsafePointer<Element>
    let count: Int
}
