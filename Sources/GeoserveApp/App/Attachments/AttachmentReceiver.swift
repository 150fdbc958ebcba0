import Crypto
import Dispatch
import Foundation
import Hummingbird
import Support

/// Streams an upload to disk: never more than one chunk in memory, the checksum computed on the
/// way, the format checked on the first bytes, the size limit enforced as bytes arrive. The file
/// is written under a temporary name, fsynced and renamed into place only when complete, so an
/// interrupted or refused upload leaves nothing behind.
struct AttachmentReceiver {
    let folder: URL
    let maxBytes: Int
    /// Checked again every `floorInterval` bytes: the upload's declared size may be absent, and
    /// other writers share the disk.
    let floor: DiskFloor
    static let floorInterval = 8 << 20

    struct Received {
        let file: String
        let size: Int
        let sha256: String
        let type: MediaType
    }

    func receive(_ body: RequestBody, declared: String?, name: String) async throws -> Received {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(name).part")
        let final = folder.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw APIError(status: .internalServerError, code: "internal", message: "cannot store the upload")
        }
        var done = false
        defer { if !done { try? FileManager.default.removeItem(at: temporary) } }
        let handle = try FileHandle(forWritingTo: temporary)
        var hasher = SHA256()
        var size = 0
        var head: [UInt8] = []
        var type: MediaType?
        // Bytes read before the format was known, then the format's structure as it streams.
        var early: [UInt8] = []
        var structure: ContainerCheck?
        var nextFloorCheck = Self.floorInterval
        do {
            for try await chunk in body {
                size += chunk.readableBytes
                guard size <= maxBytes else {
                    throw APIError.tooLarge(maxBytes, of: "an attachment")
                }
                if size >= nextFloorCheck {
                    try floor.check(folder, adding: Int64(chunk.readableBytes))
                    nextFloorCheck = size + Self.floorInterval
                }
                if let s = structure {
                    structure = try Self.checked(s, feeding: chunk.readableBytesView, type)
                } else {
                    head += chunk.readableBytesView.prefix(MediaType.sniffLength - head.count)
                    early += chunk.readableBytesView
                    if head.count >= MediaType.sniffLength {
                        let known = try check(head, declared: declared)
                        type = known
                        structure = try Self.checked(ContainerCheck(known), feeding: early, known)
                        early = []
                    }
                }
                let bytes = Data(chunk.readableBytesView)
                hasher.update(data: bytes)
                try handle.write(contentsOf: bytes)
            }
            guard size > 0 else { throw APIError.invalid("the upload is empty") }
            if type == nil {
                let known = try check(head, declared: declared)
                type = known
                structure = try Self.checked(ContainerCheck(known), feeding: early, known)
            }
            if let problem = structure?.verdict(total: size) {
                throw Self.malformed(type!, problem)
            }
            try await Self.sync(handle)
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        try FileManager.default.moveItem(at: temporary, to: final)
        done = true
        return Received(file: name, size: size, sha256: hasher.finalize().hexString, type: type!)
    }

    private static func checked(_ structure: ContainerCheck, feeding bytes: some Collection<UInt8>, _ type: MediaType?) throws -> ContainerCheck {
        var s = structure
        s.feed(bytes)
        if let problem = s.problem { throw malformed(type, problem) }
        return s
    }

    private static func malformed(_ type: MediaType?, _ problem: String) -> APIError {
        APIError.unsupportedType("the file is not a well-formed \(type.map { $0.rawValue } ?? "file of its format"): \(problem)")
    }

    private func check(_ head: [UInt8], declared: String?) throws -> MediaType {
        guard let sniffed = MediaType.sniff(head) else {
            throw APIError.unsupportedType("only JPEG, PNG, HEIC, WebP, MP4, QuickTime and WebM files are accepted")
        }
        if let declared, let base = declared.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased(),
           base != "application/octet-stream", base != sniffed.rawValue {
            throw APIError.unsupportedType("the content is \(sniffed.rawValue) but was declared as \(base)")
        }
        return sniffed
    }

    /// fsync off the cooperative pool, on a serial queue: it waits for the disk, and a global
    /// queue's thread is one of those Swift's tasks run on (on Linux), so waiting there would
    /// stall other requests. Serial queues run on libdispatch's overcommitting threads.
    private static let syncing = DispatchQueue(label: "geoserve.attachments.fsync")

    private static func sync(_ handle: FileHandle) async throws {
        let box = UncheckedHandle(handle)
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            syncing.async { c.resume(with: Result { try box.handle.synchronize() }) }
        }
    }
}

/// Carries a file handle to the thread that syncs it.
///
/// `@unchecked Sendable` is sound: the uploading task waits for the sync to finish before it
/// touches the handle again, so only one thread uses it at a time.
private final class UncheckedHandle: @unchecked Sendable {
    let handle: FileHandle
    init(_ handle: FileHandle) { self.handle = handle }
}
