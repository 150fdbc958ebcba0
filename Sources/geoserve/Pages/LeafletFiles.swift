import Foundation

/// Leaflet as Debian's `libjs-leaflet` installs it (`/usr/share/javascript/leaflet`), served from
/// those files: never copied into the repository, updated with the system. Only the files the
/// dashboard needs are served, each read once; the minified script is sent gzip-compressed when
/// the browser takes it (42 KB instead of 145 KB).
final class LeafletFiles: Sendable {
    struct File: Sendable {
        let bytes: [UInt8]
        let gzip: [UInt8]?
        let contentType: String
        let etag: String
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
            files[name] = File(bytes: Array(data), gzip: gzip.map(Array.init), contentType: type,
                               etag: "\"leaflet-\(data.count)-\(Self.checksum(data))\"")
        }
        self.files = files
    }

    /// Whether the script is there: the page says what is missing when it is not.
    var isInstalled: Bool { files["leaflet.js"] != nil }

    private static func checksum(_ data: Data) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in data { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }
}
