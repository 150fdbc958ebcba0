import Foundation

/// Points to assign, read from a file: interleaved longitude, latitude pairs.
package struct PointFile {
    /// Why a points file cannot be read.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads `.f64` (raw little-endian float64 lon,lat pairs) or CSV (a header naming `lon` and
    /// `lat`; other columns ignored).
    package static func read(path: String) throws -> [Double] {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read \(path)")
        }
        if url.pathExtension.lowercased() == "f64" {
            return try raw(data, path: path)
        }
        return try csv(data, path: path)
    }

    static func raw(_ data: Data, path: String) throws -> [Double] {
        guard data.count % 16 == 0 else {
            throw Problem(description: "\(path): \(data.count) bytes is not a whole number of lon,lat float64 pairs (16 bytes each)")
        }
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 8)).map { Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self))) }
        }
    }

    static func csv(_ data: Data, path: String) throws -> [Double] {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.makeIterator()
        guard let header = lines.next() else { throw Problem(description: "\(path): empty file") }
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        guard let lonColumn = names.firstIndex(where: { $0 == "lon" || $0 == "lng" || $0 == "longitude" }),
              let latColumn = names.firstIndex(where: { $0 == "lat" || $0 == "latitude" }) else {
            throw Problem(description: "\(path): the header needs columns named lon and lat (found: \(names.joined(separator: ", ")))")
        }
        var out: [Double] = []
        var lineNumber = 1
        while let line = lines.next() {
            lineNumber += 1
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > max(lonColumn, latColumn),
                  let lon = Double(fields[lonColumn].trimmingCharacters(in: .whitespaces)),
                  let lat = Double(fields[latColumn].trimmingCharacters(in: .whitespaces)) else {
                throw Problem(description: "\(path):\(lineNumber): lon and lat must be numbers")
            }
            out.append(lon)
            out.append(lat)
        }
        return out
    }
}
