import Foundation

/// Files of derived data saved in 8-byte words (the area index, the tile topology): sections
/// padded to whole words and digested as the file holds them, written under a temporary name
/// and renamed into place, so a reader never sees half a file and one torn by a crash fails its
/// digest.
public enum WordFile {
    /// Why a file could not be written or read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Bytes that pad a section of `size` bytes to a whole word.
    public static func padding(_ size: Int) -> Int { (8 - size % 8) % 8 }

    /// Adds a section to a digest as the file holds it: whole words, the last one zero-padded.
    public static func addPadded(_ bytes: UnsafeRawBufferPointer, to digest: inout ContentDigest) {
        let whole = bytes.count - bytes.count % 8
        digest.add(words: UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
        guard whole < bytes.count else { return }
        var last: UInt64 = 0
        withUnsafeMutableBytes(of: &last) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[whole...])) }
        digest.add(last)
    }

    /// Writes a new file at `url` (which must not exist): the header words, then each section
    /// padded to whole words. Not flushed: a file torn by a crash fails its digest at the next
    /// read and is built again.
    public static func write(_ header: [UInt64], sections: [UnsafeRawBufferPointer], to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try header.withUnsafeBytes { try writeAll(fd, $0, url) }
        let zeros = [UInt8](repeating: 0, count: 8)
        for s in sections {
            try writeAll(fd, s, url)
            let pad = padding(s.count)
            if pad > 0 { try zeros.withUnsafeBytes { try writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[0..<pad]), url) } }
        }
    }

    /// Digests the file from `offset` to its end through reads rather than a mapping, so that
    /// checking it leaves its tables out of the process's resident memory.
    public static func digestFromDisk(_ url: URL, from offset: Int, into digest: inout ContentDigest) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let chunk = 4 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 8)
        defer { buffer.deallocate() }
        var position = off_t(offset)
        while true {
            let n = pread(fd, buffer.baseAddress, chunk, position)
            guard n >= 0 else { throw Failure("cannot read \(url.path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            guard n % 8 == 0 else { throw Failure("\(url.lastPathComponent) is not whole words") }
            digest.add(words: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            position += off_t(n)
        }
    }

    /// Saves a layer's file in `directory`: `write` fills a temporary name, which is renamed to
    /// `name`; then the layer's other files of the same kind (`name`'s last extension: earlier
    /// versions, and temporary files left by a crash more than an hour ago) are removed. Files
    /// of other kinds beside them are left alone.
    public static func save(in directory: URL, name: String, layer: String, write: (URL) throws -> Void) throws -> URL {
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent("\(name).\(getpid()).tmp")
        try? fm.removeItem(at: temporary)
        do {
            try write(temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw Failure("cannot rename \(temporary.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? fm.removeItem(at: temporary)
            throw error
        }
        let kind = "." + (name.split(separator: ".").last.map(String.init) ?? "")
        let anHourAgo = Date().addingTimeInterval(-3600)
        for other in (try? fm.contentsOfDirectory(atPath: directory.path)) ?? [] where other.hasPrefix("\(layer).v") && other != name {
            let path = directory.appendingPathComponent(other)
            if other.hasSuffix(".tmp") {
                guard other.contains(kind + ".") else { continue }
                let modified = (try? fm.attributesOfItem(atPath: path.path)[.modificationDate] as? Date) ?? Date()
                if modified > anHourAgo { continue }
            } else if !other.hasSuffix(kind) {
                continue
            }
            try? fm.removeItem(at: path)
        }
        return url
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ url: URL) throws {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure("cannot write \(url.path): \(String(cString: strerror(errno)))") }
            done += n
        }
    }
}
