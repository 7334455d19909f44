import MockProvider

/// The ID token settings in words, for a scenario's explanation.
enum IDTokenPolicyText {
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
}
