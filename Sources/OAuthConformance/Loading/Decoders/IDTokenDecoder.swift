import MockProvider
import Yams

/// Decodes OpenID Connect's part of `provider:`: the `id_tokens:` settings and a rule's
/// `id_token:` action.
struct IDTokenDecoder {
    static let policyKeys = ["alg", "lifetime", "jwks", "rotate_keys"]
    static let rotationKeys = ["at", "from_id_token", "retire_old"]
    static let alterationKeys = ["set", "omit", "from_now", "sign", "kid"]

    let reader: YAMLReader

    /// `id_tokens: { alg: ES256, lifetime: 1h, jwks: all_keys, rotate_keys: { at: 30m, retire_old: true } }`.
    func policy(_ node: Node) -> IDTokenPolicy? {
        guard let settings = reader.mapping(node, "provider.id_tokens", allowedKeys: Self.policyKeys) else {
            return nil
        }
        var policy = IDTokenPolicy()
        if let node = settings["alg"] {
            // JOSE names are upper case; lower case is accepted so a matrix value can also sit in a scenario id.
            if let name = node.scalar?.string, let algorithm = IDTokenAlgorithm(rawValue: name.uppercased()) {
                policy.algorithm = algorithm
            } else {
                _ = reader.enumeration(node, "ID token algorithm", as: IDTokenAlgorithm.self)
            }
        }
        if let lifetime = settings["lifetime"].flatMap({ reader.duration($0, "id_tokens.lifetime") }) {
            policy.lifetime = lifetime
        }
        if let publication = settings["jwks"].flatMap({
            reader.enumeration($0, "id_tokens.jwks", as: IDTokenPolicy.Publication.self)
        }) {
            policy.publication = publication
        }
        policy.rotation = settings["rotate_keys"].flatMap(rotation)
        return policy
    }

    /// `rotate_keys: { at: 30m }` or `{ from_id_token: 3 }`, optionally `retire_old: true`.
    private func rotation(_ node: Node) -> KeyRotation? {
        guard let rotation = reader.mapping(node, "id_tokens.rotate_keys", allowedKeys: Self.rotationKeys),
            let form = rotation.exactlyOne(of: ["at", "from_id_token"])
        else { return nil }
        let retire = rotation["retire_old"].flatMap { reader.bool($0, "rotate_keys.retire_old") } ?? false
        if form == "at" {
            return reader.duration(rotation["at"]!, "rotate_keys.at").map { KeyRotation(.at($0), retireOldKey: retire) }
        }
        return reader.int(rotation["from_id_token"]!, "rotate_keys.from_id_token", in: 1...1_000_000).map {
            KeyRotation(.fromIDToken($0), retireOldKey: retire)
        }
    }

    /// `id_token: { set: { iss: … }, omit: [nonce], from_now: { exp: -1h }, sign: other_key, kid: absent }`.
    func alteration(_ node: Node) -> IDTokenAlteration? {
        guard let fields = reader.mapping(node, "id_token", allowedKeys: Self.alterationKeys) else { return nil }
        if case .mapping(let mapping) = node, mapping.isEmpty {
            reader.error("id_token needs at least one of \(YAMLReader.list(Self.alterationKeys))", at: node)
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
            guard let offsets = offsets(fromNowNode) else { return nil }
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
    private func offsets(_ node: Node) -> (fixed: [String: Duration], inClientSkews: [String: Int])? {
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
            switch Self.offset(text) {
            case .success(let offset):
                if offset.fixed != .zero || offset.skews == 0 { fixed[claim] = offset.fixed }
                if offset.skews != 0 { inClientSkews[claim] = offset.skews }
            case .failure(let problem):
                reader.error(
                    "id_token.from_now.\(claim): \(problem.message) (a leading - means in the past; terms are durations and \(Self.clientSkewTerm))",
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
}
