import MockProvider
import Yams

/// Decodes OpenID Connect's part of `provider:`: the `id_tokens:` settings. A rule's `id_token:`
/// action decodes in `RuleActions/IDTokenAlteration+ScenarioLanguage.swift`.
struct IDTokenDecoder {
    static let policyKeys = ["alg", "lifetime", "jwks", "rotate_keys"]
    static let rotationKeys = ["at", "from_id_token", "retire_old"]

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
}
