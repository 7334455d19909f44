import MockProvider
import Yams

extension DPoPNonceRenewal: ScenarioRuleAction {
    static let key = "dpop_nonce"

    /// `dpop_nonce: renew`: the server moves to a new DPoP nonce and demands it (RFC 9449 §8, §9).
    static func decode(_ node: Node, reader: YAMLReader) -> DPoPNonceRenewal? {
        guard let value = reader.string(node, "dpop_nonce") else { return nil }
        guard value == "renew" else {
            reader.error("dpop_nonce takes renew, not '\(value)'", at: node)
            return nil
        }
        return DPoPNonceRenewal()
    }

    /// Only the token endpoint's server and the resource's hand out DPoP nonces.
    static func fit(_ matcher: inout RequestMatcher, keyNode: Node, reader: YAMLReader) -> Bool {
        guard let endpoint = matcher.endpoint, endpoint != .token, endpoint != .resource else { return true }
        reader.error(
            "dpop_nonce renews the nonce of the token endpoint or the resource; this rule's endpoint is \(endpoint.rawValue)",
            at: keyNode
        )
        return false
    }

    var explanation: String { "moves to a new DPoP nonce and answers use_dpop_nonce with it" }
}
