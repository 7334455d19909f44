import MockProvider

/// The ID token settings and an `IDTokenAlteration` in words, for a scenario's explanation: "omitting nonce, with exp 1h ago,
/// signed by another key under the expected kid".
enum IDTokenAlterationText {
    static func describe(_ alteration: IDTokenAlteration) -> String {
        var changes = alteration.omit.sorted().map { "omitting \($0)" }
        changes += alteration.set.keys.sorted().map { "with \($0) \(alteration.set[$0]!.serialized())" }
        changes += Set(alteration.fromNow.keys).union(alteration.fromNowInClientSkews.keys).sorted().map { claim in
            "with \(claim) \(instant(alteration.fromNow[claim] ?? .zero, clientSkews: alteration.fromNowInClientSkews[claim] ?? 0))"
        }
        switch alteration.signing {
        case .otherKey: changes.append("signed by another key under the expected kid")
        case .unsigned: changes.append("unsigned (alg none)")
        case .hs256WithPublicKey: changes.append("signed HS256 with the public key's PEM as the secret")
        case .clientSecret: changes.append("signed HS256 with the client secret")
        case nil: break
        }
        switch alteration.keyID {
        case .absent: changes.append("without kid")
        case .replace(let kid): changes.append("with kid \(kid)")
        case nil: break
        }
        return changes.isEmpty ? "unchanged" : changes.joined(separator: ", ")
    }

    /// e.g. "signs ID tokens ES256 (lifetime 1h), rotating its signing key at 30m and retiring the old one".
    static func policy(_ policy: IDTokenPolicy) -> String {
        var text = "signs ID tokens \(policy.algorithm.rawValue)"
        if policy.algorithm == .hs256 { text += " with the client secret" }
        text += " (lifetime \(DurationText.format(policy.lifetime)))"
        if policy.publication == .allKeys { text += ", publishing an RSA and a P-256 key" }
        if let rotation = policy.rotation {
            let when =
                switch rotation.trigger {
                case .at(let instant): "at \(DurationText.format(instant))"
                case .fromIDToken(let ordinal): "from ID token no. \(ordinal) on"
                }
            text += ", rotating its signing key \(when)"
            text += rotation.retireOldKey ? " and retiring the old one" : " and keeping the old one published"
        }
        return text
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
