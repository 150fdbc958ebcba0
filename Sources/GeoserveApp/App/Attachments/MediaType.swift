/// The photo and video formats accepted as attachments, recognised by their first bytes: the
/// declared Content-Type is only believed when the bytes agree.
enum MediaType: String, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case heic = "image/heic"
    case webp = "image/webp"
    case mp4 = "video/mp4"
    case quicktime = "video/quicktime"
    case webm = "video/webm"

    /// Bytes needed to recognise every format.
    static let sniffLength = 16

    /// The format of a file from its first bytes, or nil when it is none of the accepted ones.
    static func sniff(_ b: [UInt8]) -> MediaType? {
        func at(_ offset: Int, _ bytes: [UInt8]) -> Bool {
            b.count >= offset + bytes.count && Array(b[offset..<(offset + bytes.count)]) == bytes
        }
        if at(0, [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, Array("RIFF".utf8)), at(8, Array("WEBP".utf8)) { return .webp }
        if at(0, [0x1A, 0x45, 0xDF, 0xA3]) { return .webm }
        if at(4, Array("ftyp".utf8)), b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "mif1", "msf1", "hevc": return .heic
            case "qt  ": return .quicktime
            case "isom", "iso2", "mp41", "mp42", "avc1", "M4V ", "dash", "3gp4", "3gp5": return .mp4
            default: return nil
            }
        }
        return nil
    }
}
