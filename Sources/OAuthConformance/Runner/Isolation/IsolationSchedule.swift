/// Which scenarios each isolation worker is given, and what it means when a worker ends before
/// it has judged them all. Scenarios in flight when a worker crashes are the suspects: one alone
/// is the culprit; several (under `--jobs`) are each run again alone, one worker after another,
/// so that the one that crashes its worker alone is the culprit and the others keep the
/// verdicts they earn. Scenarios given to a worker that it never started go to the next one.
///
/// It always ends: every worker either judges a scenario, loses one as an error, or sends the
/// suspects of a crash to be run alone (which a scenario is once at most); a worker that ends
/// having started nothing loses every scenario it was given.
struct IsolationSchedule {
    /// What one worker is given: scenarios in suite order, and how many it runs at once.
    struct Assignment: Equatable {
        var scenarios: [String]
        var jobs: Int
    }

    /// Why a scenario is lost as an error with its worker.
    enum Loss: Equatable {
        /// The worker died while judging it, alone or shown to be the culprit when run alone.
        case crashed
        /// It took longer than any scenario may, and its worker was killed for it.
        case hung
        /// The worker ended before it started any of the scenarios it was given.
        case neverStarted
    }

    private let jobs: Int
    private let positions: [String: Int]
    /// Not yet given to a worker, in suite order: for the next worker, `jobs` at a time.
    private var pending: [String]
    /// In flight at a crash among others, in suite order: each to be run alone.
    private var suspects: [String] = []
    /// The current worker's scenarios not finished yet, and whether they are suspects.
    private var assigned: [String] = []
    private var assignedAreSuspects = false
    /// Started by the current worker and not finished, with when each started.
    private(set) var inFlight: [String: ContinuousClock.Instant] = [:]
    /// Whether the current worker has finished a scenario.
    private var progressed = false

    init(scenarios: [String], jobs: Int) {
        self.jobs = max(1, jobs)
        positions = Dictionary(scenarios.enumerated().map { ($1, $0) }) { first, _ in first }
        pending = scenarios
    }

    /// What the next worker is given, suspects first; `nil` when every scenario is finished or lost.
    mutating func nextAssignment() -> Assignment? {
        inFlight = [:]
        progressed = false
        if !suspects.isEmpty {
            (assigned, assignedAreSuspects, suspects) = (suspects, true, [])
            return Assignment(scenarios: assigned, jobs: 1)
        }
        guard !pending.isEmpty else { return nil }
        (assigned, assignedAreSuspects, pending) = (pending, false, [])
        return Assignment(scenarios: assigned, jobs: jobs)
    }

    /// The current worker started the scenario. Ids it was not given are ignored.
    mutating func started(_ scenario: String, at instant: ContinuousClock.Instant) {
        guard assigned.contains(scenario) else { return }
        inFlight[scenario] = instant
    }

    /// The current worker finished the scenario; false when it was not one of its own
    /// unfinished scenarios (an id it was not given, or a result sent twice), which is ignored.
    mutating func finished(_ scenario: String) -> Bool {
        guard let index = assigned.firstIndex(of: scenario) else { return false }
        assigned.remove(at: index)
        inFlight[scenario] = nil
        progressed = true
        return true
    }

    /// Whether the current worker has finished everything it was given.
    var isAssignmentDone: Bool { assigned.isEmpty }

    /// The scenarios in flight for longer than `limit`, in suite order.
    func overdue(at now: ContinuousClock.Instant, limit: Duration) -> [String] {
        inSuiteOrder(inFlight.filter { now - $0.value > limit }.keys)
    }

    /// The current worker ended; `hung` are the scenarios it was killed for taking too long.
    /// Returns the scenarios lost as errors, and why; the others it was given and did not finish
    /// go back to be given again.
    mutating func workerEnded(hung: [String] = []) -> [(scenario: String, loss: Loss)] {
        let flying = inSuiteOrder(inFlight.keys)
        var lost: [(scenario: String, loss: Loss)] = []
        var suspected: [String] = []
        if !hung.isEmpty {
            lost = hung.map { ($0, .hung) }
        } else if flying.count == 1 {
            lost = [(flying[0], .crashed)]
        } else if flying.count > 1 {
            // Under --jobs the culprit is not known: each suspect runs alone, and is lost only if
            // it crashes its worker then.
            suspected = flying
            suspects = inSuiteOrder(suspects + suspected)
        } else if !progressed {
            lost = assigned.map { ($0, .neverStarted) }
        }
        let settled = Set(lost.map(\.scenario) + suspected)
        let again = assigned.filter { !settled.contains($0) }
        if assignedAreSuspects {
            suspects = inSuiteOrder(suspects + again)
        } else {
            pending = inSuiteOrder(pending + again)
        }
        assigned = []
        inFlight = [:]
        return lost
    }

    private func inSuiteOrder(_ scenarios: some Sequence<String>) -> [String] {
        scenarios.sorted { positions[$0, default: .max] < positions[$1, default: .max] }
    }
}
