import Foundation
import GeoCore

/// Any bytes as a layer file: the reader answers a layer (every feature accepted or rejected
/// with a reason) or a `GeoJSONError`, never a crash; GEOS handles are freed either way (the
/// address sanitizer's leak check runs at the end).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let read = try? LayerReader().read(bytes) {
        precondition(read.features.count <= read.report.features.count + read.features.count, "more features accepted than read")
    }
    return 0
}
