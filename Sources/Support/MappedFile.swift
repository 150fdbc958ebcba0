import Foundation

/// A file mapped read-only into memory, unmapped when the last reference goes.
///
/// Pages are read from the page cache when first touched and count towards the process's
/// resident memory only while touched; the kernel can drop them again under pressure, since the
/// file holds them. `@unchecked Sendable` is sound because the mapping is read-only.
public final class MappedFile: @unchecked Sendable {
    public let bytes: UnsafeRawBufferPointer

    /// Maps the whole file; throws for a missing, unreadable or empty file.
    public init(url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MappedFileError(url: url, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw MappedFileError(url: url, reason: String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        guard size > 0 else { throw MappedFileError(url: url, reason: "the file is empty") }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw MappedFileError(url: url, reason: String(cString: strerror(errno)))
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }
}

/// A file that could not be mapped, with the system's reason.
public struct MappedFileError: Error, CustomStringConvertible {
    public let url: URL
    public let reason: String
    public var description: String { "cannot map \(url.path): \(reason)" }
}
