import Aggregation
import DomainKernel
import MapTiles
import ReportVerification

/// Every query parameter of the service, declared once, and the lists each route accepts. The
/// handlers parse with these lists and the OpenAPI document lists them.
enum QueryParameters {
    // MARK: OGC API – Features
    static let f = QueryParameter("f", .choice(["json", "geojson", "html"]),
                                  "Response format; default from the Accept header, else json.")
    static let limit = QueryParameter("limit", .integer(1...QueryLimits.maxFeatures, clampsAbove: true), default: String(QueryLimits.defaultFeatures),
                                      "Features per page; values above \(QueryLimits.maxFeatures) are clamped to it.")
    static let bbox = QueryParameter("bbox", .bbox,
                                     "minLon,minLat,maxLon,maxLat in CRS84 (or the six-number form with heights); features whose geometry meets the box. West > east crosses the antimeridian; the latitudes may come in either order.")
    static let datetime = QueryParameter("datetime", .pattern(Patterns.datetime, maxLength: 100),
                                         "RFC 3339 date, date-time or interval (open end '..'): the numbers of the newest publication dated on or before its last day, whose windows end on the publication's day (default the newest publication; verifiers' live view: windows end on that day, default today).")
    static let cursor = QueryParameter("cursor", .pattern(Patterns.pageCursor, maxLength: 400), "Page cursor from a next or prev link.")
    static let kind = QueryParameter("kind", .choice(ReportKind.allCases.map(\.rawValue)),
                                     "Which reports are counted (default covid; verifiers' live view: both kinds together).")
    static let basis = QueryParameter("basis", .choice(TimeBasis.allCases.map(\.rawValue)),
                                      "Verifiers only: which date places a report in a live window: test or incident date (default), submission, or verification. Published numbers count reports on the day a publication released them and refuse this parameter.")

    static let ogcFormat = [f]
    static let items = [f, limit, bbox, datetime, cursor, kind, basis]
    static let item = [f, datetime, kind, basis]

    // MARK: places
    static let lon = QueryParameter("lon", .number(-180...180), required: true, "Longitude, WGS 84.")
    static let lat = QueryParameter("lat", .number(-90...90), required: true, "Latitude, WGS 84.")
    static let nearestCount = QueryParameter("k", .integer(1...100, clampsAbove: false), default: "5", "How many.")
    static let pointLayer = QueryParameter("layer", .text(maxLength: 64), "Only this point layer.")
    static let containing = [lon, lat]
    static let nearest = [lon, lat, nearestCount, pointLayer]

    // MARK: exports
    static let exportLayer = QueryParameter("layer", .text(maxLength: 64), required: true, "Area layer.")
    static let from = QueryParameter("from", .date, required: true, "First day.")
    static let to = QueryParameter("to", .date, required: true, "Last day, inclusive.")
    static let bucket = QueryParameter("bucket", .choice(Bucket.allCases.map(\.rawValue)), default: Bucket.day.rawValue,
                                       "Bucket length; weeks start on Monday.")
    static let exportFormat = QueryParameter("format", .choice(["csv", "json"]), default: "csv", "Response format.")
    static let export = [exportLayer, from, to, bucket, kind, basis, exportFormat]

    // MARK: tiles
    static let metric = QueryParameter("metric", .choice(QueryLimits.tileMetrics), default: "verified_14d",
                                       "Verified reports (or rate per 1,000) in the 7, 14, 28-day or all-time window ending today.")
    static let ramp = QueryParameter("ramp", .choice(ColorRamp.allCases.map(\.rawValue)), default: TileStyle().ramp.rawValue, "Colour ramp.")
    static let classes = QueryParameter("classes", .integer(ColorRamp.classRange, clampsAbove: false), default: "7", "Number of classes.")
    static let method = QueryParameter("method", .choice(["quantile", "equal", "fixed"]),
                                       "Classification (default quantile, or fixed when breaks are given).")
    static let breaks = QueryParameter("breaks", .numbers(1...(ColorRamp.classRange.upperBound - 1)),
                                       "Fixed class breaks, comma-separated, ascending.")
    static let labels = QueryParameter("labels", .boolean, default: "false", "Area names from zoom 14.")
    static let tileVersion = QueryParameter("v", .text(maxLength: 200), "Data version from TileJSON; makes the tile immutable.")
    static let tileStyle = [metric, kind, basis, ramp, classes, method, breaks, labels]
    static let tile = tileStyle + [tileVersion]

    // MARK: verification queue
    static let statuses = QueryParameter("status", .choices(ReportStatus.allCases.map(\.rawValue)), default: ReportStatus.pending.rawValue,
                                         "Statuses to list, in queue order.")
    static let queueLayer = QueryParameter("layer", .text(maxLength: 64), "Only reports placed in this layer.")
    static let queueArea = QueryParameter("area", .text(maxLength: 200), "Only reports placed in an area of this id (in `layer` when given).")
    static let queueFrom = QueryParameter("from", .date, "First occurrence day.")
    static let queueTo = QueryParameter("to", .date, "Last occurrence day, inclusive.")
    static let queueLimit = QueryParameter("limit", .integer(1...200, clampsAbove: true), default: "50",
                                           "Reports per page; values above 200 are clamped to it.")
    static let queueCursor = QueryParameter("cursor", .pattern(Patterns.queueCursor, maxLength: 600), "Cursor from the previous page's next.")
    static let queue = [statuses, kind, queueLayer, queueArea, queueFrom, queueTo, queueLimit, queueCursor]

    // MARK: public misconduct search
    static let radius = QueryParameter("radius_m", .number(QueryLimits.searchRadius), required: true, "The circle's radius in metres.")
    static let searchLayer = QueryParameter("layer", .text(maxLength: 64), required: true, "Layer of the area.")
    static let searchArea = QueryParameter("area", .text(maxLength: 200), required: true, "Area id.")
    static let resultLayer = QueryParameter("layer", .text(maxLength: 64), "The layer whose area each report shows (default its first).")
    static let searchLimit = QueryParameter("limit", .integer(1...500, clampsAbove: true), default: "100",
                                            "Reports at most; values above 500 are clamped to it.")
    static let misconductInArea = [searchLayer, searchArea, searchLimit]
    static let misconductNear = [lon, lat, radius, resultLayer, searchLimit]

    // MARK: layer uploads
    static let layerKind = QueryParameter("kind", .choice(["areas", "points"]), "Layer kind (default: points when every geometry is a Point).")
    static let idField = QueryParameter("id_field", .text(maxLength: 64), "Property holding the area id (default: the feature's id, else an id property).")
    static let nameField = QueryParameter("name_field", .text(maxLength: 64), "Property holding the display name (default: name).")
    static let skipInvalid = QueryParameter("skip_invalid", .boolean, default: "false", "Store the valid features even when some are rejected.")
    static let publishNow = QueryParameter("publish", .boolean, default: "false",
                                           "Publish the new version at once (reports re-assigned in the same transaction); otherwise it is staged.")
    static let layerUpload = [layerKind, idField, nameField, skipInvalid, publishNow]

    // MARK: alerts
    static let alertState = QueryParameter("state", .choice(["current", "scheduled", "expired", "all"]), default: "current",
                                           "Which alerts: those shown now (default, public), or for admins those not yet started, ended, or all.")
    static let alerts = [alertState]
}
