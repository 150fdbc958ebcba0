import Foundation
import NIOCore

/// Leaflet as Debian's `libjs-leaflet` installs it (`/usr/share/javascript/leaflet`), served from
/// those files: never copied into the repository, updated with the system. Only the files the
/// dashboard needs are served, each read once at start; the minified script is sent
/// gzip-compressed when the browser takes it (42 KB instead of 145 KB).
final class LeafletFiles: Sendable {
    /// One file as it is sent: plain, and gzip-compressed when Debian ships that too (each
    /// representation with its own ETag, as HTTP wants of different bytes).
    struct File: Sendable {
        let plain: (body: ByteBuffer, etag: String)
        let gzip: (body: ByteBuffer, etag: String)?
        let contentType: String
    }

    static let defaultFolder = "/usr/share/javascript/leaflet"

    /// Served name → file under the folder.
    static let served: [String: (path: String, type: String)] = [
        "leaflet.js": ("leaflet.min.js", "text/javascript; charset=utf-8"),
        "leaflet.css": ("leaflet.css", "text/css; charset=utf-8"),
        "images/layers.png": ("images/layers.png", "image/png"),
        "images/layers-2x.png": ("images/layers-2x.png", "image/png"),
        "images/marker-icon.png": ("images/marker-icon.png", "image/png"),
        "images/marker-icon-2x.png": ("images/marker-icon-2x.png", "image/png"),
        "images/marker-shadow.png": ("images/marker-shadow.png", "image/png"),
    ]

    let folder: String
    let files: [String: File]

    init(folder: String = LeafletFiles.defaultFolder) {
        self.folder = folder
        var files: [String: File] = [:]
        for (name, (path, type)) in Self.served {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(path)
            guard let data = try? Data(contentsOf: url) else { continue }
            let gzip = try? Data(contentsOf: url.appendingPathExtension("gz"))
            files[name] = File(plain: (ByteBuffer(bytes: data), Conditional.etag(bytes: data)),
                               gzip: gzip.map { (ByteBuffer(bytes: $0), Conditional.etag(bytes: $0)) }, contentType: type)
        }
        self.files = files
    }

    /// Whether the script is there: the page says what is missing when it is not.
    var isInstalled: Bool { files["leaflet.js"] != nil }
}
