import MockProvider
import Yams

extension RequestFilter {
    /// The keys of a request filter, the same wherever one stands: `count`, `request`, `first`,
    /// `order`, `never`, `distinct` and `spacing`.
    static let keys = [
        "endpoint", "grant", "path", "status", "origin", "bearer", "presents", "from_step", "during_step",
    ]

    /// The filter the keys of `mapping` state, or nil once each problem is reported where it stands.
    static func decode(_ mapping: CheckedMapping, in source: CheckSource) -> RequestFilter? {
        let reader = source.reader
        var filter = RequestFilter()
        var valid = true
        if let node = mapping["endpoint"] {
            filter.endpoint = reader.enumeration(node, "endpoint", as: Endpoint.self)
            valid = valid && filter.endpoint != nil
        }
        if let node = mapping["grant"] {
            filter.grant = reader.grant(node, "grant", besideEndpoint: filter.endpoint)
            valid = valid && filter.grant != nil
        }
        if let node = mapping["path"] {
            filter.path = RuleDecoder.path(node, reader: reader)
            valid = valid && filter.path != nil
        }
        if let node = mapping["status"] {
            filter.status = reader.int(node, "status", in: 100...599)
            valid = valid && filter.status != nil
        }
        if let node = mapping["origin"] {
            let origin = reader.enumeration(node, "origin", as: RequestOrigin.self)
            filter.origin = origin?.listener
            valid = valid && origin != nil
        }
        if let node = mapping["bearer"] {
            filter.bearer = bearer(node, reader: reader)
            valid = valid && filter.bearer != nil
        }
        if let node = mapping["presents"] {
            filter.presents = reader.presentedCredential(node)
            valid = valid && filter.presents != nil
        }
        if mapping["from_step"] != nil, let during = mapping.entries["during_step"] {
            reader.error("a filter takes from_step or during_step, not both", at: during.key)
            valid = false
        }
        for key in ["from_step", "during_step"] {
            guard let node = mapping[key] else { continue }
            let step = reader.int(node, key, in: 1...(source.stepCount ?? 10_000))
            filter.steps = step.map { key == "from_step" ? $0...Int.max : $0...$0 }
            valid = valid && step != nil
        }
        return valid ? filter : nil
    }

    /// `bearer: access_token#1`, or `bearer: none` for a request without one.
    private static func bearer(_ node: Node, reader: YAMLReader) -> BearerFilter? {
        if node.scalar?.string == "none" { return BearerFilter.none }
        guard let reference = reader.tokenReference(node, "bearer") else { return nil }
        guard reference.kind == .access else {
            reader.error("bearer must name an access token (access_token#N) or none, not \(reference)", at: node)
            return nil
        }
        return .token(reference)
    }
}
