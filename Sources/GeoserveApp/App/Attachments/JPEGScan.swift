/// JPEG's structure, byte by byte: marker segments with lengths up to each start of scan, then
/// entropy-coded data in which 0xFF is only ever stuffing (FF 00), a restart marker or the next
/// marker, until the end-of-image marker. Bytes after EOI are allowed: phones append trailers.
struct JPEGScan {
    private enum State {
        case marker, markerType, lengthHigh, lengthLow(UInt8), entropy, entropyMarker, ended
    }

    private var state = State.marker
    private var skip = 0
    /// Whether the segment being skipped is a start of scan, after which entropy data follows.
    private var scanFollows = false
    private(set) var problem: String?

    var isComplete: Bool {
        if case .ended = state { return true }
        return false
    }

    /// Markers that carry no length: restarts, start and end of image, TEM.
    private static func standsAlone(_ m: UInt8) -> Bool { (0xD0...0xD9).contains(m) || m == 0x01 }

    /// Markers a JPEG may hold: SOFn, DHT, DAC, DRI, DQT, SOS, DNL, APPn, COM and the rest of the
    /// assigned range (0xC0–0xFE).
    private static func isMarker(_ m: UInt8) -> Bool { (0xC0...0xFE).contains(m) || m == 0x01 }

    /// Reads the file from its start-of-image marker on.
    mutating func feed(_ bytes: some Collection<UInt8>) {
        var i = bytes.startIndex
        while i != bytes.endIndex, problem == nil {
            if skip > 0 {
                let n = Swift.min(skip, bytes.distance(from: i, to: bytes.endIndex))
                skip -= n
                i = bytes.index(i, offsetBy: n)
                if skip == 0, scanFollows { state = .entropy; scanFollows = false }
                continue
            }
            let b = bytes[i]
            i = bytes.index(after: i)
            switch state {
            case .marker:
                guard b == 0xFF else { problem = "a segment that does not start with a marker"; return }
                state = .markerType
            case .markerType:
                if b == 0xFF { continue }   // fill bytes
                guard Self.isMarker(b) else { problem = "an unknown marker"; return }
                if b == 0xD9 { state = .ended } else if Self.standsAlone(b) { state = .marker } else {
                    scanFollows = b == 0xDA
                    state = .lengthHigh
                }
            case .lengthHigh:
                state = .lengthLow(b)
            case .lengthLow(let high):
                let length = Int(high) << 8 | Int(b)
                guard length >= 2 else { problem = "a segment shorter than its length field"; return }
                skip = length - 2
                state = .marker
                if skip == 0, scanFollows { state = .entropy; scanFollows = false }
            case .entropy:
                if b == 0xFF { state = .entropyMarker }
            case .entropyMarker:
                switch b {
                case 0x00, 0xD0...0xD7: state = .entropy
                case 0xFF: continue
                case 0xD9: state = .ended
                default:
                    guard Self.isMarker(b), !Self.standsAlone(b) else { problem = "an unknown marker in the image data"; return }
                    scanFollows = b == 0xDA
                    state = .lengthHigh
                }
            case .ended:
                return
            }
        }
    }
}
