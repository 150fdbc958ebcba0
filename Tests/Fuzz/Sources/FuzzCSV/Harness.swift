/// Any bytes as a CSV file of reports: rows, or a malformed row named by its line, never a crash;
/// lines only grow.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var rows = CSVRows(Array(UnsafeBufferPointer(start: data, count: size)))
    var line = 0
    while let row = rows.next() {
        precondition(row.line > line, "row lines must grow")
        line = row.line
    }
    return 0
}
