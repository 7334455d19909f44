/// A profile's expected failures grouped by the probe that confirms them: several entries often
/// share one probe (one cause seen by several scenarios), which runs once.
public struct ProbedClaims: Sendable {
    /// Each probe, in the order the profile first names it, with the entries it confirms.
    public var byProbe: [(probe: ProbeCommand, entries: [ExpectedFailure])]
    /// The entries that name no probe: claims the public table does not publish.
    public var unprobed: [ExpectedFailure]

    public init(_ entries: [ExpectedFailure]) {
        var byProbe: [(probe: ProbeCommand, entries: [ExpectedFailure])] = []
        var unprobed: [ExpectedFailure] = []
        for entry in entries {
            guard let probe = entry.probe else {
                unprobed.append(entry)
                continue
            }
            if let index = byProbe.firstIndex(where: { $0.probe == probe }) {
                byProbe[index].entries.append(entry)
            } else {
                byProbe.append((probe, [entry]))
            }
        }
        self.byProbe = byProbe
        self.unprobed = unprobed
    }

    public var probedEntryCount: Int { byProbe.reduce(0) { $0 + $1.entries.count } }
}
