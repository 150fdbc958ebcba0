import Hummingbird
import Logging
import Storage

/// Builds the service: opens and migrates the store, imports the demo data into an empty store,
/// loads the published layers, and wires the routes.
func buildApplication(_ configuration: AppConfiguration) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "geoserve")
    logger.logLevel = configuration.logLevel
    let store = try SQLiteStore(path: configuration.databasePath, timeZone: configuration.timeZone)
    try await store.migrate()
    if let demo = configuration.demoDataPath {
        try await DemoData.importIfEmpty(into: store, from: demo, logger: logger)
    }
    let catalog = LayerCatalog(precision: configuration.coordinatePrecision)
    try await catalog.refresh(from: store)
    logger.info("layers loaded", metadata: ["count": "\(catalog.snapshot().count)"])

    let receipts = Receipts(secretHex: try await store.secret(named: "receipts"))
    let router = buildRouter(store: store, catalog: catalog, configuration: configuration, receipts: receipts)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "geoserve"),
        logger: logger
    )
}

/// The routes, shared by the server and the tests.
func buildRouter(store: SQLiteStore, catalog: LayerCatalog, configuration: AppConfiguration, receipts: Receipts) -> Router<AppRequestContext> {
    let credentials = configuration.credentials
    let router = Router(context: AppRequestContext.self)
    // Outermost, so that error responses carry the CORS headers too.
    router.add(middleware: CrossOriginMiddleware(allowedOrigins: configuration.corsOrigins))
    router.add(middleware: JSONErrorMiddleware())
    HealthController(store: store, catalog: catalog).addRoutes(to: router)
    router.get("openapi.json") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.json)))
    }
    let cache = ResponseCache(capacityBytes: configuration.responseCacheBytes)
    let refresh = CatalogRefreshMiddleware(store: store, catalog: catalog)
    let features = router.group().add(middleware: BearerAuthMiddleware(accounts: store)).add(middleware: refresh)
    let statistics = StatisticsService(store: store, policy: configuration.disclosure, timeZone: configuration.timeZone)
    FeaturesController(store: store, catalog: catalog, cache: cache, publicURL: configuration.publicURL, statistics: statistics)
        .addRoutes(to: features)
    TilesController(store: store, catalog: catalog, tiles: TileService(statistics: statistics, cacheBytes: configuration.tileCacheBytes),
                    publicURL: configuration.publicURL, responses: ResponseCache(capacityBytes: configuration.tileCacheBytes / 4))
        .addRoutes(to: router.group().add(middleware: refresh))
    let v1 = router.group("v1").add(middleware: BearerAuthMiddleware(accounts: store))
    // Routes that look layers up see the catalog at the current data version. Intake does not
    // pay for that read on every report (it cost about a tenth of intake throughput).
    let v1Layers = v1.group().add(middleware: refresh)
    PlacesController(catalog: catalog).addRoutes(to: v1Layers)
    ExportsController(export: AreaStatsExport(store: store, policy: configuration.disclosure), catalog: catalog).addRoutes(to: v1Layers)
    LayersController(store: store, catalog: catalog).addRoutes(to: v1Layers)
    AuthController(accounts: store, credentials: credentials).addRoutes(to: v1)
    AccountsController(accounts: store, credentials: credentials).addRoutes(to: v1)
    ReportsController(store: store, catalog: catalog, receipts: receipts, timeZone: configuration.timeZone).addRoutes(to: v1)
    VerificationController(store: store).addRoutes(to: v1)
    MisconductSearchController(store: store).addRoutes(to: v1)
    RevisionsController(store: store, catalog: catalog, timeZone: configuration.timeZone, keep: configuration.revisionsKept).addRoutes(to: v1)
    AttachmentsController(store: store, receipts: receipts, folder: configuration.attachmentsFolder, maxBytes: configuration.maxAttachmentBytes).addRoutes(to: v1)
    return router
}
