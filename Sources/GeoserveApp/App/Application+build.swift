import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Storage

/// Builds the service: opens and migrates the store, imports the demo data into an empty store,
/// loads the published layers, and wires the routes. The data-version watcher runs in the
/// application's service group.
/// - Parameters:
///   - metrics: what `/metrics` serves; the store reports its calls to it.
///   - readiness: turned to draining when a stop begins (`DrainService`).
package func buildApplication(_ configuration: AppConfiguration, metrics: ServiceMetrics = ServiceMetrics(),
                      readiness: Readiness = Readiness()) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "geoserve")
    logger.logLevel = configuration.logLevel
    var settings = try configuration.storeSettings
    settings.observer = metrics
    let keysPath = try configuration.keysFile
    let opened = try openStore(settings)
    try await opened.migrate()
    // Before anything writes: a trigger planted in the file would run with the first write.
    try await StoreSchemaCheck.check(opened, at: settings.location, logger: logger)
    // The keys before anything else writes: a process given the wrong key file (or none where one
    // existed) stops here, with nothing imported, seeded or published.
    let keys = try await InstallationKeys.load(path: keysPath, store: opened)
    // The zone the store counts its days in: recorded with it, and a zone given that is not the
    // recorded one stops the process here.
    let (store, zone) = try await StoreTimeZone.settled(opened, opened: settings, given: configuration.timeZoneGiven ? configuration.timeZone : nil,
                                                        keys: keys)
    if !zone.recorded {
        logger.warning("this store does not record its time zone: its days are counted in UTC; set GEOSERVE_TIME_ZONE to the campus's zone to record it")
    }
    var configuration = configuration
    configuration.timeZone = zone.zone
    // The attachments folder exists from the first start, the owner's alone: a backup copying it
    // from the first night finds it, and no file in it is ever readable by others.
    try FileManager.default.createDirectory(at: try configuration.attachmentsFolder, withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o700])
    let drill = try await DrillCopy.since(store)
    if let drill {
        logger.warning("this store is a drill copy: no status notifications and no scheduled publications until `geoserve drill promote`",
                       metadata: ["marked": "\(drill)"])
    }
    if let demo = configuration.demoDataPath {
        try await DemoData.importIfEmpty(into: store, from: demo, logger: logger)
    }
    // The OpenAPI document is written once a process (60 ms): on a thread of its own while the
    // layers load, which leave a core idle while SQLite reads them.
    Thread.detachNewThread { _ = OpenAPIDocument.json }
    let catalog = LayerCatalog(precision: configuration.coordinatePrecision, indexFiles: try configuration.indexFiles, logger: logger)
    let watcher = DataVersionWatcher(source: store, layers: store, catalog: catalog, publications: PublicationBook(store: store),
                                     interval: configuration.dataVersionInterval, logger: logger)
    try await watcher.check()
    logger.info("layers loaded", metadata: ["count": .stringConvertible(catalog.snapshot().count), "dataVersion": .stringConvertible(watcher.dataVersion)])
    let publisher = Publisher(store: store, policy: configuration.disclosure, timeZone: configuration.timeZone, days: configuration.publicationSchedule.days)
    if configuration.demoReports {
        // Before the first publication, so that the demo's history is published day by day.
        do {
            let outcome = try await DemoSeeder(store: store, catalog: catalog, publisher: publisher, layer: "halls",
                                               demo: DemoReports(days: 28, seed: 1)).seed()
            logger.notice("stored synthetic demo reports", metadata: ["reports": .stringConvertible(outcome.reports), "publications": .stringConvertible(outcome.publications)])
            await watcher.noteCommit()
        } catch let refused as DemoSeeder.Refused {
            logger.notice("no demo reports", metadata: ["reason": "\(refused.description)"])
        }
    }
    // A scheduled time missed while no process ran (or a first start) is published before the
    // first request, so a new installation shows its demo numbers at once.
    let scheduler = PublicationScheduler(publisher: publisher, schedule: configuration.publicationSchedule, watcher: watcher, logger: logger)
    do {
        if drill == nil { try await scheduler.catchUp() }
    } catch {
        // Serving goes on with the publications there are; the schedule tries again each minute.
        logger.warning("publication at start failed; retrying on the schedule", metadata: ["error": "\(error)"])
    }

    // An alert rule on this gauge catches production brought back as a drill copy (a restore
    // made without --as-production), which would otherwise send nothing and publish nothing.
    metrics.sample("geoserve_drill_copy") { drill == nil ? 0 : 1 }
    let router = try buildRouter(store: store, catalog: catalog, watcher: watcher, configuration: configuration,
                                 receipts: Receipts(secretHex: keys.receipts), idempotency: IdempotencyKeys(secretHex: keys.receipts),
                                 metrics: metrics, readiness: readiness, drillCopy: drill)
    // The largest body any route takes is an attachment or a layer; JSON routes check their own smaller limit.
    // The backlog is counted by every process, a drill copy's too: its alert is how a silent
    // production shows.
    var services: [any Service] = [watcher, NotificationBacklogGauge(outbox: store, metrics: metrics, logger: logger,
                                                                                    interval: configuration.notificationBacklogInterval)]
    if drill == nil {
        services += [scheduler, NotificationDispatcher(outbox: store, configuration: configuration.webhooks, metrics: metrics, logger: logger)]
    }
    let maxContentLength = max(configuration.maxAttachmentBytes, configuration.maxLayerUploadBytes)
    return Application(
        router: router,
        server: .guardedHTTP1(limits: configuration.connectionLimits, maxContentLength: maxContentLength, logger: logger),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "geoserve",
                             availableConnectionsDelegate: ConnectionCap(maximum: configuration.maxConnections, logger: logger)),
        services: services,
        // People who start it want to look at it: the log names the page to open.
        onServerRunning: { [logger, base = configuration.publicURL ?? configuration.linkBase.listenAddress] _ in
            logger.notice("campus dashboard at \(base)/ (the API at \(base)/openapi.json)")
        },
        logger: logger
    )
}

/// The routes, shared by the server and the tests.
func buildRouter(store: any GeoserveStore, catalog: LayerCatalog, watcher: DataVersionWatcher, configuration: AppConfiguration,
                 receipts: Receipts, idempotency: IdempotencyKeys, metrics: ServiceMetrics = ServiceMetrics(),
                 readiness: Readiness = Readiness(), drillCopy: String? = nil) throws -> Router<AppRequestContext> {
    let credentials = configuration.credentials
    // HEAD is answered wherever GET is, as HTTP requires (RFC 9110 §9.3.2).
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    let known = KnownRoutes()
    // Outermost: every request is logged and counted with the status the client saw.
    router.add(middleware: RequestLogMiddleware(jsonSink: configuration.logFormat.resolved == .json ? .standardError : nil))
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    // Next, so that error responses carry the CORS headers too.
    router.add(middleware: CrossOriginMiddleware(allowedOrigins: configuration.corsOrigins, intakeOrigins: configuration.intakeOrigins))
    router.add(middleware: PageSecurityMiddleware(policy: PagesController.contentSecurityPolicy(basemap: configuration.basemap)))
    let health = WriteHealth()
    // Outside the error middleware, so that refusals are not kept either.
    router.add(middleware: APICachingMiddleware())
    router.add(middleware: JSONErrorMiddleware(health: health))
    router.add(middleware: MethodNotAllowedMiddleware(routes: known))
    router.add(middleware: DataVersionMiddleware(watcher: watcher))
    HealthController(store: store, catalog: catalog, health: health, readiness: readiness, drillCopy: drillCopy).addRoutes(to: router)
    let pages = PagesController(leaflet: LeafletFiles(folder: configuration.leafletFolder), basemap: configuration.basemap)
    pages.addRoutes(to: router)
    // 97 KB of JSON, 12 KB gzip-compressed: a file like the pages' own, with an ETag.
    let openAPI = PagesController.Asset(Array(OpenAPIDocument.json), type: "application/json")
    router.get("openapi.json") { request, _ in PagesController.send(openAPI, request) }
    let cache = ResponseCache(capacityBytes: configuration.responseCacheBytes)
    let authenticated = router.group().add(middleware: BearerAuthMiddleware(accounts: store))
    let intakeLimit = configuration.intakeRateLimit()
    MetricsController(metrics: metrics, access: configuration.metricsAllow, addresses: intakeLimit.addresses).addRoutes(to: authenticated)
    let statistics = StatisticsService(counters: store, publications: watcher.publications, policy: configuration.disclosure,
                                       timeZone: configuration.timeZone, entries: configuration.statisticsCacheEntries,
                                       bytes: configuration.statisticsCacheBytes)
    let links = configuration.linkBase
    FeaturesController(catalog: catalog, cache: cache, links: links, statistics: statistics, dashboard: pages.dashboard)
        .addRoutes(to: authenticated.group().add(middleware: HTMLErrorMiddleware(links: links)))
    let tiles = TileService(statistics: statistics, cacheBytes: configuration.tileCacheBytes, geometryBytes: configuration.tileGeometryBytes,
                            paintings: configuration.statisticsCacheEntries, topologyFiles: try configuration.topologyFiles, logger: catalog.logger)
    let tileResponses = ResponseCache(capacityBytes: configuration.tileCacheBytes / 4)
    TilesController(catalog: catalog, tiles: tiles, links: links, responses: tileResponses)
        .addRoutes(to: router.group())
    metrics.observe(watcher: watcher, readiness: readiness, responses: cache, tiles: tiles, tileResponses: tileResponses)
    let v1 = router.group("v1").add(middleware: BearerAuthMiddleware(accounts: store, acceptsSessionCookie: true))
    PlacesController(catalog: catalog).addRoutes(to: v1)
    ExportsController(export: AreaStatsExport(publications: watcher.publications, audit: store, policy: configuration.disclosure, timeZone: configuration.timeZone),
                      catalog: catalog).addRoutes(to: v1)
    LayersController(store: store).addRoutes(to: v1)
    LayerUploadsController(store: store, watcher: watcher, maxBytes: configuration.maxLayerUploadBytes,
                           catalog: catalog).addRoutes(to: v1)
    let auth = AuthController(accounts: store, credentials: credentials, throttle: configuration.loginThrottle(store),
                              addresses: intakeLimit.addresses)
    auth.addRoutes(to: v1)
    SessionController(auth: auth, secureCookies: configuration.publicURL?.lowercased().hasPrefix("https://") ?? false).addRoutes(to: v1)
    AccountsController(accounts: store, credentials: credentials).addRoutes(to: v1)
    ReportsController(reports: store, verification: store, catalog: catalog, watcher: watcher, receipts: receipts, timeZone: configuration.timeZone,
                      intakeLimit: intakeLimit, metrics: metrics, idempotency: idempotency).addRoutes(to: v1)
    VerificationController(reports: store, verification: store, audit: store, watcher: watcher, metrics: metrics).addRoutes(to: v1)
    MisconductSearchController(search: store, publications: watcher.publications).addRoutes(to: v1)
    PublicationsController(publications: watcher.publications,
                           publisher: Publisher(store: store, policy: configuration.disclosure, timeZone: configuration.timeZone, days: configuration.publicationSchedule.days),
                           schedule: configuration.publicationSchedule, watcher: watcher, drillCopy: drillCopy).addRoutes(to: v1)
    NoticesController(board: NoticeBoard(store: store)).addRoutes(to: v1)
    RevisionsController(reports: store, revisions: store, watcher: watcher, catalog: catalog, timeZone: configuration.timeZone,
                        keep: configuration.revisionsKept).addRoutes(to: v1)
    AttachmentsController(reports: store, attachments: store, verification: store, receipts: receipts, folder: try configuration.attachmentsFolder,
                          maxBytes: configuration.maxAttachmentBytes, limits: configuration.attachmentLimits,
                          floor: DiskFloor(bytes: configuration.minFreeDiskBytes), intakeLimit: intakeLimit).addRoutes(to: v1)
    known.record(router.routes)
    return router
}
