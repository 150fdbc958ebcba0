import Foundation
import Glibc
import HTTPTypes

/// Free space kept on the disk that holds uploads: an upload that would leave less than `bytes`
/// free is refused before anything is written, so anonymous uploads cannot fill the disk the
/// database also needs.
struct DiskFloor: Sendable {
    let bytes: Int64

    /// Bytes free to unprivileged writers on the file system holding `folder` (or its nearest
    /// existing parent), nil when it cannot be read.
    static func available(at folder: URL) -> Int64? {
        var path = folder
        while !FileManager.default.fileExists(atPath: path.path), path.pathComponents.count > 1 {
            path.deleteLastPathComponent()
        }
        var s = statvfs()
        guard statvfs(path.path, &s) == 0 else { return nil }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    /// Throws `507 insufficient_storage` (with `Retry-After`) when writing `adding` more bytes
    /// under `folder` would leave less than the floor free.
    func check(_ folder: URL, adding: Int64) throws {
        guard bytes > 0, let free = Self.available(at: folder), free - adding < bytes else { return }
        throw APIError.insufficientStorage("the server is short of disk space; try again later")
    }
}
