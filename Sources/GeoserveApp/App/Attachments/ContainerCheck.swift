/// Checks, as an upload streams, that the file is built the way its format says: the first
/// bytes only name a format, and a PNG signature before two megabytes of anything is not a PNG.
/// One pass, constant memory; a header at a time is buffered, payloads are skipped.
struct ContainerCheck {
    private enum Walk {
        case layout(any ContainerLayout)
        case jpeg(JPEGScan)
    }

    private var walk: Walk
    private var header: [UInt8] = []
    private var need: Int
    private var skip = 0
    private var toEnd = false
    private(set) var problem: String?

    init(_ type: MediaType) {
        switch type {
        case .png: walk = .layout(PNGLayout())
        case .heic, .mp4, .quicktime: walk = .layout(BoxLayout())
        case .webp: walk = .layout(RIFFLayout())
        case .webm: walk = .layout(EBMLLayout())
        case .jpeg: walk = .jpeg(JPEGScan())
        }
        if case .layout(let l) = walk { need = l.firstHeader } else { need = 0 }
    }

    mutating func feed(_ bytes: some Collection<UInt8>) {
        guard problem == nil, !toEnd else { return }
        switch walk {
        case .jpeg(var scan):
            // The start-of-image marker reads as one that stands alone.
            scan.feed(bytes)
            problem = scan.problem
            walk = .jpeg(scan)
        case .layout(var layout):
            walkLayout(&layout, bytes)
            walk = .layout(layout)
        }
    }

    private mutating func walkLayout(_ layout: inout any ContainerLayout, _ bytes: some Collection<UInt8>) {
        var i = bytes.startIndex
        while i != bytes.endIndex, problem == nil, !toEnd {
            if skip > 0 {
                let n = Swift.min(skip, bytes.distance(from: i, to: bytes.endIndex))
                skip -= n
                i = bytes.index(i, offsetBy: n)
                continue
            }
            let n = Swift.min(need - header.count, bytes.distance(from: i, to: bytes.endIndex))
            let end = bytes.index(i, offsetBy: n)
            header += bytes[i..<end]
            i = end
            guard header.count == need else { continue }
            switch layout.step(header) {
            case .header(let more): need = more
            case .skip(let n):
                skip = n
                header = []
                need = layout.nextHeader
            case .toEnd: toEnd = true
            case .broken(let why): problem = why
            }
        }
    }

    /// Whether the whole file, `total` bytes, was well formed; nil when it was, else why not.
    func verdict(total: Int) -> String? {
        if let problem { return problem }
        switch walk {
        case .jpeg(let scan): return scan.isComplete ? nil : "no end-of-image marker"
        case .layout(let layout):
            if toEnd { return layout.isComplete(total: total) ? nil : "the file is cut short" }
            return header.isEmpty && skip == 0 && layout.isComplete(total: total) ? nil : "the file is cut short"
        }
    }
}
