import Yams

/// `order: [{ endpoint: token, grant: refresh_token }, { endpoint: resource }]`: for each filter,
/// its first matching request exists, and these first matches arrived in the listed order
/// (strictly increasing journal sequence).
struct OrderCheck: ScenarioCheck {
    static let key = "order"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`order: [FILTER, FILTER, …]`"#,
            passesWhen:
                #"Each filter's *first* matching request exists, and these first requests arrived in the listed order (each strictly after the previous one in the journal). Two or more filters, no filter twice."#
        )
    ]

    let filters: [RequestFilter]

    static func decode(_ source: CheckSource) -> OrderCheck? {
        let reader = source.reader
        guard let items = reader.sequence(source.body, "order") else { return nil }
        guard items.count >= 2 else {
            reader.error(
                "order needs at least two request filters, e.g. [{ endpoint: token }, { endpoint: resource }]",
                at: source.body
            )
            return nil
        }
        let filters = items.map { item in
            reader.mapping(item, "an order item", allowedKeys: RequestFilter.keys).flatMap {
                RequestFilter.decode($0, in: source)
            }
        }
        guard filters.allSatisfy({ $0 != nil }) else { return nil }
        let decoded = filters.compactMap { $0 }
        guard decoded.allSatisfy(source.holdsForEverySignIn) else { return nil }
        for (index, filter) in decoded.enumerated() where decoded[..<index].contains(filter) {
            // Both would pick the same first request, which cannot come before itself.
            reader.error(
                "order lists \(filter.described(plural: false)) twice; the check could never pass",
                at: items[index]
            )
            return nil
        }
        return OrderCheck(filters: decoded)
    }

    var kind: String { "order" }

    var countedRequests: [RequestFilter] { filters }

    var statement: String {
        "in this order: " + filters.map { "the first \($0.described(plural: false))" }.joined(separator: ", then ")
    }

    func judge(in context: JudgingContext) -> Judgement {
        let firsts = filters.map { context.entries(matching: $0).first }
        let arrived = firsts.compactMap { $0 }
        let inOrder =
            arrived.count == filters.count
            && zip(arrived, arrived.dropFirst()).allSatisfy { $0.sequence < $1.sequence }
        let observed = zip(filters, firsts).map { filter, first in
            "\(filter.described(plural: false)) " + (first.map { "first at \(context.describe($0))" } ?? "never")
        }
        return Judgement(
            passed: inOrder,
            expected: filters.map { $0.described(plural: false) }.joined(separator: " → "),
            observed: observed.joined(separator: "; "),
            evidence: arrived.map(\.sequence)
        )
    }
}

extension Expectation {
    /// `order: [FILTER, FILTER, …]`: `.order([.token(grant: .refreshToken), .resource()])`.
    public static func order(_ filters: [RequestFilter]) -> Expectation {
        Expectation(OrderCheck(filters: filters))
    }
}
