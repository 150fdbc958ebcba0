import ReportVerification

/// Any bytes as a report body: a draft or a `ReadError` naming the member, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? ReportDraft(json: Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
