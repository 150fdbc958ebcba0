import Foundation

/// Writes a file a megabyte at a time: an export of a million reports is thirty-odd writes rather
/// than a million small ones, and never holds the whole file in memory.
public final class BufferedFileWriter {
    private let out: FileHandle
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 20

    /// Creates (or empties) the file, readable by its owner alone whatever the umask (an export of
    /// reports holds every payload and exact location); `StorageError.cannotOpen` when it cannot
    /// be written.
    public init(creating file: URL) throws {
        let manager = FileManager.default
        guard manager.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              (try? manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)) != nil,
              let out = FileHandle(forWritingAtPath: file.path) else {
            throw StorageError.cannotOpen("\(file.path): cannot be written")
        }
        self.out = out
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    /// Appends bytes built in place by `write`.
    public func append(_ write: (inout [UInt8]) throws -> Void) throws {
        try write(&buffer)
        if buffer.count >= Self.flushSize {
            try out.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Writes what is left and closes the file.
    public func finish() throws {
        try out.write(contentsOf: buffer)
        buffer = []
    }

    deinit { try? out.close() }
}
