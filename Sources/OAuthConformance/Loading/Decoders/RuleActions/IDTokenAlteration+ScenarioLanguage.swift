import MockProvider
import Yams

extension IDTokenAlteration: ScenarioRuleAction {
    static let key = "id_token"
    static let fieldKeys = ["set", "omit", "from_now", "sign", "kid"]

    /// `id_token: { set: { iss: … }, omit: [nonce], from_now: { exp: -1h }, sign: other_key, kid: absent }`.
    static func decode(_ node: Node, reader: YAMLReader) -> IDTokenAlteration? {
        guard let fields = reader.mapping(node, "id_token", allowedKeys: fieldKeys) else { return nil }
        if case .mapping(let mapping) = node, mapping.isEmpty {
            reader.error("id_token needs at least one of \(YAMLReader.list(fieldKeys))", at: node)
            return nil
        }
        var alteration = IDTokenAlteration()
        var valid = true
        if let setNode = fields["set"] {
            if case .object(let members)? = reader.json(setNode, "id_token.set"), case .mapping = setNode {
                alteration.set = members
            } else {
                reader.error("id_token.set must be a mapping of claim names to values", at: setNode)
                valid = false
            }
        }
        if let omitNode = fields["omit"] {
            alteration.omit = Set(reader.scalarList(omitNode, "id_token.omit"))
        }
        if let fromNowNode = fields["from_now"] {
            guard let offsets = offsets(fromNowNode, reader: reader) else { return nil }
            alteration.fromNow = offsets.fixed
            alteration.fromNowInClientSkews = offsets.inClientSkews
        }
        alteration.signing = fields["sign"].flatMap {
            reader.enumeration($0, "id_token.sign", as: IDTokenAlteration.Signing.self)
        }
        if fields.has("sign"), alteration.signing == nil { valid = false }
        if let kidNode = fields["kid"] {
            guard let kid = reader.string(kidNode, "id_token.kid") else { return nil }
            alteration.keyID = kid == "absent" ? .absent : .replace(kid)
        }
        // A claim given twice would leave the reader guessing which wins.
        let named = [
            ("set", Set(alteration.set.keys)), ("omit", alteration.omit),
            (
                "from_now", Set(alteration.fromNow.keys).union(alteration.fromNowInClientSkews.keys)
            ),
        ]
        for (index, (key, claims)) in named.enumerated() {
            for (otherKey, otherClaims) in named.dropFirst(index + 1) {
                if let claim = claims.intersection(otherClaims).sorted().first {
                    reader.error("claim '\(claim)' is in both id_token.\(key) and id_token.\(otherKey)", at: node)
                    valid = false
                }
            }
        }
        return valid ? alteration : nil
    }

    static let clientSkewTerm = "client.id_token_clock_skew"

    /// `from_now: { exp: -1h, iat: "client.id_token_clock_skew + 30s" }`: claims placed this far
    /// from now on the virtual clock; `client.id_token_clock_skew` is the skew the client declares.
    private static func offsets(
        _ node: Node,
        reader: YAMLReader
    ) -> (fixed: [String: Duration], inClientSkews: [String: Int])? {
        guard case .mapping(let mapping) = node else {
            reader.error("id_token.from_now must map claim names to durations, e.g. { exp: -1h }", at: node)
            return nil
        }
        var fixed: [String: Duration] = [:]
        var inClientSkews: [String: Int] = [:]
        var valid = true
        for (key, value) in mapping {
            guard let claim = reader.string(key, "a claim name in id_token.from_now"),
                let text = reader.string(value, "id_token.from_now.\(claim)")
            else {
                valid = false
                continue
            }
            switch offset(text) {
            case .success(let offset):
                if offset.fixed != .zero || offset.skews == 0 { fixed[claim] = offset.fixed }
                if offset.skews != 0 { inClientSkews[claim] = offset.skews }
            case .failure(let problem):
                reader.error(
                    "id_token.from_now.\(claim): \(problem.message) (a leading - means in the past; terms are durations and \(clientSkewTerm))",
                    at: value
                )
                valid = false
            }
        }
        return valid ? (fixed, inClientSkews) : nil
    }

    struct OffsetProblem: Error {
        var message: String
    }

    /// `-1h`, `client.id_token_clock_skew + 30s`, `- client.id_token_clock_skew - 1m`: signed terms.
    static func offset(_ text: String) -> Result<(fixed: Duration, skews: Int), OffsetProblem> {
        var fixed = Duration.zero
        var skews = 0
        var remainder = Substring(text).drop { $0.isWhitespace }
        guard !remainder.isEmpty else { return .failure(OffsetProblem(message: "empty")) }
        while !remainder.isEmpty {
            var negative = false
            if let sign = remainder.first, sign == "-" || sign == "+" {
                negative = sign == "-"
                remainder = remainder.dropFirst().drop { $0.isWhitespace }
            }
            let raw = remainder.prefix { $0 != "+" && $0 != "-" }
            remainder = remainder.dropFirst(raw.count)
            let term = raw.trimmingCharacters(in: .whitespaces)
            if term == clientSkewTerm {
                skews += negative ? -1 : 1
                continue
            }
            switch DurationText.parse(term) {
            case .success(let duration): fixed += negative ? .zero - duration : duration
            case .failure(let problem): return .failure(OffsetProblem(message: problem.message))
            }
        }
        return .success((fixed, skews))
    }

    /// Only token responses carry ID tokens: without taking only token requests, a rule with no
    /// endpoint would take (and answer correctly) requests that the rules after it are written for.
    static func fit(_ matcher: inout RequestMatcher, keyNode: Node, reader: YAMLReader) -> Bool {
        if let endpoint = matcher.endpoint, endpoint != .token {
            reader.error(
                "id_token alters the ID token of a token response; this rule's endpoint is \(endpoint.rawValue), not token",
                at: keyNode
            )
            return false
        }
        matcher.endpoint = .token
        return true
    }

    var explanation: String { "serves the request, then issues the ID token " + describedChanges }

    /// e.g. "omitting nonce, with exp 1h ago, signed by another key under the expected kid".
    private var describedChanges: String {
        var changes = omit.sorted().map { "omitting \($0)" }
        changes += set.keys.sorted().map { "with \($0) \(set[$0]!.serialized())" }
        changes += Set(fromNow.keys).union(fromNowInClientSkews.keys).sorted().map { claim in
            "with \(claim) \(Self.instant(fromNow[claim] ?? .zero, clientSkews: fromNowInClientSkews[claim] ?? 0))"
        }
        switch signing {
        case .otherKey: changes.append("signed by another key under the expected kid")
        case .unsigned: changes.append("unsigned (alg none)")
        case .hs256WithPublicKey: changes.append("signed HS256 with the public key's PEM as the secret")
        case .clientSecret: changes.append("signed HS256 with the client secret")
        case nil: break
        }
        switch keyID {
        case .absent: changes.append("without kid")
        case .replace(let kid): changes.append("with kid \(kid)")
        case nil: break
        }
        return changes.isEmpty ? "unchanged" : changes.joined(separator: ", ")
    }

    /// `1h ago`, `in 7d`, `now`.
    /// "1h ago", "in 30s"; with the client's declared skew, "the client's clock skew and 1m ago".
    private static func instant(_ offset: Duration, clientSkews: Int = 0) -> String {
        guard clientSkews != 0 else {
            if offset == .zero { return "now" }
            return offset < .zero ? "\(DurationText.format(.zero - offset)) ago" : "in \(DurationText.format(offset))"
        }
        let skews =
            abs(clientSkews) == 1
            ? "the client's declared clock skew" : "\(abs(clientSkews)) times the client's declared clock skew"
        let past = clientSkews < 0
        guard offset != .zero else { return past ? "\(skews) ago" : "\(skews) from now" }
        let sameWay = (offset < .zero) == past
        let amount = DurationText.format(offset < .zero ? .zero - offset : offset)
        return "\(skews) \(sameWay ? "and" : "less") \(amount) \(past ? "ago" : "from now")"
    }
}
