/// One outcome the client reported, with the step it belongs to; a `concurrently` step gives several.
struct ClientReport {
    let record: StepRecord
    let outcome: ClientOutcome
    /// e.g. "step 3 (request GET /resource)", or "step 3 (20 × request GET /resource concurrently) no. 5".
    let label: String
}
