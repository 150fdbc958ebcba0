/// One submission waiting for a group commit, and who waits for its outcome.
public struct IntakeJob: Sendable {
    public let submission: ReportSubmission
    public let continuation: CheckedContinuation<SubmissionOutcome, any Error>

    public init(submission: ReportSubmission, continuation: CheckedContinuation<SubmissionOutcome, any Error>) {
        self.submission = submission
        self.continuation = continuation
    }
}

/// Submissions waiting for the next group commit, and whether a drain is under way: the
/// submissions that arrive while one batch commits form the next batch. `Job` is `IntakeJob`,
/// or a backend's form of it with work done before the batch (PostgreSQL's encoded rows).
public struct IntakeQueue<Job: Sendable>: Sendable {
    private var jobs: [Job] = []
    private var draining = false

    public init() {}

    /// Adds a submission; true when no drain is under way and the caller must start one.
    public mutating func add(_ job: Job) -> Bool {
        jobs.append(job)
        defer { draining = true }
        return !draining
    }

    /// Whether submissions wait; false ends the drain. For a drain that takes its batch later
    /// (`takeBatch`), once it holds what committing needs: only the drain takes, so the batch is
    /// then not empty.
    public mutating func keepDraining() -> Bool {
        if jobs.isEmpty { draining = false }
        return !jobs.isEmpty
    }

    /// The waiting submissions, as the next batch; none ends the drain.
    public mutating func takeBatch() -> [Job] {
        defer { jobs = [] }
        if jobs.isEmpty { draining = false }
        return jobs
    }
}
