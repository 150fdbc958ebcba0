import Foundation
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read through a private, read-only memory map whose pages can be handed back while it is
/// read: a layer file is scanned whole and then read a feature at a time, and its pages counted
/// in the import's resident memory (87 MB of a 300,000-area file) though each is needed once.
/// Handing them back costs nothing that reading needs: a page touched again is mapped again from
/// the page cache.
///
/// The file must not be truncated while it is mapped (reading a page past its new end would stop
/// the process); a file changed in place may be read partly old, partly new.
final class MappedFile {
    /// The file's bytes; readable as long as this object lives.
    let data: Data
    private let base: UnsafeMutableRawPointer?
    private let length: Int

    /// Maps the file at `path`; nil when it cannot be opened or mapped (read it whole then).
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // A pipe or a terminal has no end to seek to: nil, and the caller reads it whole.
        let end = lseek(fd, 0, SEEK_END)
        guard end >= 0 else { return nil }
        length = Int(end)
        guard length > 0 else {
            base = nil
            data = Data()
            return
        }
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return nil }
        base = mapped
        data = Data(bytesNoCopy: mapped, count: length, deallocator: .none)
    }

    deinit {
        if let base { munmap(base, length) }
    }

    /// Hands every resident page back to the kernel; the bytes stay readable.
    func releasePages() {
        guard let base else { return }
        _ = madvise(base, length, MADV_DONTNEED)
    }
}
