/// Everything the service keeps, as one value: each backend implements every narrow protocol.
/// Callers take the narrowest protocol they need; only the code that opens a store and hands its
/// parts out holds the whole.
public typealias GeoserveStore = StoreAdmin & DataVersionSource & AreaStore & ReportStore & AuditLog & VerificationStore
    & RevisionStore & PublicReportSearch & AttachmentStore & AccountStore & CounterStore & SecretStore & StoreCopy & BulkReportStore & LoginThrottleStore
    & PublicationStore & NoticeStore & NotificationOutbox
