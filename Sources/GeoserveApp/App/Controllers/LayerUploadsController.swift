import GeoCore
import Foundation
import Hummingbird
import NIOCore
import ReportVerification
import Storage

/// Layer versions through the API (admins): upload a GeoJSON FeatureCollection as a new version,
/// validated and repaired as `geoserve import-areas` does, staged or published at once; publish a
/// staged version later. Publishing re-assigns every report to the new areas in the same
/// transaction, counters included.
struct LayerUploadsController {
    let store: any AreaStore & AuditLog
    let watcher: DataVersionWatcher
    /// Bytes one upload may have.
    let maxBytes: Int
    /// The service's published layers, brought up to the store's data version before use.
    let catalog: LayerCatalog

    /// What an upload did: the version and the validation report's repaired and rejected
    /// features (valid ones are only counted).
    struct UploadView: ResponseEncodable {
        let layer: String
        let version: Int?
        let kind: String
        let published: Bool
        let featureCount: Int
        let validCount: Int
        let repairedCount: Int
        let rejectedCount: Int
        /// Reports that changed area, when published.
        let moved: Int?
        let problems: [FeatureProblem]
    }

    struct FeatureProblem: Codable {
        let index: Int
        let id: String?
        let outcome: String
        let reason: String?
        let notes: [String]
    }

    struct PublishView: ResponseEncodable {
        let layer: String
        let version: Int
        let moved: Int
    }

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        let admin = v1.group("layers").add(middleware: RequirePermission(.manageLayers))
        admin.post(":layer/versions") { request, context in try await upload(request, context) }
        admin.post(":layer/versions/:version/publish") { _, context in try await publish(context) }
    }

    func upload(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let layer = try context.parameters.require("layer")
        guard LayerName.isValid(layer) else { throw APIError.badParameter(LayerName.rule, field: "layer") }
        let q = try QueryValues(request, QueryParameters.layerUpload)
        if let declared = request.headers[.contentType], !Request.isJSON(declared) {
            throw APIError.unsupportedType("send the layer as application/geo+json")
        }
        if let length = request.headers[.contentLength], (Int(length) ?? .max) > maxBytes { throw APIError.tooLarge(maxBytes, of: "a layer upload") }
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: maxBytes) } catch is NIOTooManyBytesError { throw APIError.tooLarge(maxBytes, of: "a layer upload") }
        let reader = LayerReader(idField: q.text(QueryParameters.idField), nameField: q.text(QueryParameters.nameField),
                                 kind: q.text(QueryParameters.layerKind).flatMap(LayerGeometryKind.init))
        // Validation and repair run GEOS over every feature: off the request's executor.
        let data = Data(body.readableBytesView)
        let result: LayerReadResult
        do {
            result = try await Self.offload { try reader.read(data) }
        } catch let error as GeoJSONError {
            throw APIError(status: .unprocessableContent, code: "invalid", message: "not a GeoJSON FeatureCollection: \(error)", field: "body")
        }
        let report = result.report
        let problems = report.features.compactMap(Self.problem)
        let skipInvalid = q.bool(QueryParameters.skipInvalid) ?? false
        let refused = (report.rejectedCount > 0 && !skipInvalid) || result.features.isEmpty
        let imported = LayerImport(layer: layer, kind: result.kind == .points ? .points : .areas, source: "upload",
                                   areas: result.features.map { StoredArea(id: $0.id, name: $0.name, properties: $0.properties, geometry: $0.geometry) },
                                   repairedCount: report.repairedCount, rejectedCount: report.rejectedCount)
        func view(version: Int?, published: Bool, moved: Int?) -> UploadView {
            UploadView(layer: layer, version: version, kind: imported.kind.rawValue, published: published, featureCount: result.features.count,
                       validCount: report.validCount, repairedCount: report.repairedCount, rejectedCount: report.rejectedCount,
                       moved: moved, problems: problems)
        }
        if refused {
            // Nothing stored: the report says what to fix (or to send skip-invalid=true).
            var response = try view(version: nil, published: false, moved: nil).response(from: request, context: context)
            response.status = .unprocessableContent
            return response
        }
        let actor = context.account?.id ?? "admin"
        do {
            let made: UploadView
            if q.bool(QueryParameters.publishNow) ?? false {
                try await watcher.check()
                let (info, moved) = try await LayerReassignment.importLayer(imported, into: store, others: catalog.snapshot())
                await watcher.noteCommit()
                made = view(version: info.version, published: true, moved: moved)
            } else {
                let info = try await store.stage(imported)
                made = view(version: info.version, published: false, moved: nil)
            }
            try await store.recordEvent(actor: actor, action: "layer-upload",
                                        detail: "layer \(layer) version \(made.version ?? 0) features=\(made.featureCount) published=\(made.published)")
            var response = try made.response(from: request, context: context)
            response.status = .created
            return response
        } catch StorageError.invalidImport(let why) {
            throw APIError.conflict(why)
        }
    }

    func publish(_ context: AppRequestContext) async throws -> PublishView {
        let layer = try context.parameters.require("layer")
        guard let version = Int(try context.parameters.require("version")) else { throw APIError.badParameter("version must be a whole number", field: "version") }
        guard let summary = try await store.layers().first(where: { $0.name == layer }), let info = summary.versions.first(where: { $0.version == version }) else {
            throw APIError.notFound("layer \(layer) has no version \(version)")
        }
        let moved: Int
        if info.kind == .areas {
            let areas = try await store.areas(layer: layer, version: version)
            try await watcher.check()
            let index = try await Self.offload { AreaIndex(areas: areas.map { IndexedArea(id: $0.id, polygons: $0.geometry.polygons) }) }
            moved = try await store.publish(layer: layer, version: version, resolve: LayerReassignment.resolver(layer: layer, index: index, others: catalog.snapshot()))
        } else {
            moved = try await store.publish(layer: layer, version: version, resolve: nil)
        }
        await watcher.noteCommit()
        try await store.recordEvent(actor: context.account?.id ?? "admin", action: "layer-publish", detail: "layer \(layer) version \(version) moved=\(moved)")
        return PublishView(layer: layer, version: version, moved: moved)
    }

    private static func problem(_ f: FeatureReport) -> FeatureProblem? {
        switch f.outcome {
        case .valid: return nil
        case .repaired(let notes): return FeatureProblem(index: f.index, id: f.id, outcome: "repaired", reason: nil, notes: notes.map(\.description))
        case .rejected(let why, let notes):
            // The reader's hints name the command's flag; here the query parameter does the same.
            return FeatureProblem(index: f.index, id: f.id, outcome: "rejected", reason: why.replacingOccurrences(of: "--id-field", with: "id_field"),
                                  notes: notes.map(\.description))
        }
    }

    /// Runs CPU-heavy work on a global queue, so the server's executors keep answering.
    private static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
        }
    }
}
