import Foundation
import MockProvider

/// Reads the DPoP proofs and nonces of a journal for the `never: { carries: … }` DPoP checks: a
/// bound token presented as a bearer token, a proof's `jti` seen before, a proof without the
/// latest nonce its server handed out.
struct DPoPSighting {
    let journal: [JournalEntry]
    let tokens: Transcript

    /// How the request breaks the rule, in words, or nil.
    func sighting(of forbidden: ForbiddenCarriage, in entry: JournalEntry) -> String? {
        switch forbidden {
        case .bearerForDPoPToken: bearerPresentation(in: entry)
        case .replayedDPoPProof: replay(in: entry)
        case .staleDPoPNonce: staleNonce(in: entry)
        default: nil
        }
    }

    private func bearerPresentation(in entry: JournalEntry) -> String? {
        if let value = entry.request.bearerToken, let token = tokens.issuedToken(withValue: value),
            token.boundKey != nil
        {
            return "(\(token.label), DPoP-bound, sent with the Bearer scheme)"
        }
        let dpopToken = entry.request.header("Authorization").flatMap(Self.dpopCredentials)
        if let value = dpopToken, entry.request.header("DPoP") == nil,
            let token = tokens.issuedToken(withValue: value), token.boundKey != nil
        {
            return "(\(token.label) with the DPoP scheme but no DPoP proof)"
        }
        return nil
    }

    private func replay(in entry: JournalEntry) -> String? {
        guard let jti = Self.claims(of: entry.request)?["jti"]?.stringValue else { return nil }
        guard
            let first = journal.first(where: {
                $0.sequence < entry.sequence && Self.claims(of: $0.request)?["jti"]?.stringValue == jti
            })
        else { return nil }
        return "(jti \(jti), first sent in #\(first.sequence))"
    }

    private func staleNonce(in entry: JournalEntry) -> String? {
        guard let claims = Self.claims(of: entry.request), let server = Self.nonceServer(entry.endpoint) else {
            return nil
        }
        let handedOut = journal.last {
            $0.sequence < entry.sequence && Self.nonceServer($0.endpoint) == server
                && $0.response.header("DPoP-Nonce") != nil
        }
        let sent = claims["nonce"]?.stringValue
        guard let handedOut, let latest = handedOut.response.header("DPoP-Nonce") else {
            // §9: a nonce is good only at the server that issued it; this one has issued none.
            return sent.map { "(nonce \($0), which this server never handed out)" }
        }
        guard sent != latest else { return nil }
        return "(nonce \(sent ?? "absent"); #\(handedOut.sequence)'s answer had handed out \(latest))"
    }

    /// RFC 9449 §9: the authorization server's nonces and the resource server's are apart.
    private static func nonceServer(_ endpoint: Endpoint?) -> Endpoint? {
        switch endpoint {
        case .token?: .token
        // The userinfo endpoint is a protected resource too, and takes the resource's nonces.
        case .resource?, .userinfo?: .resource
        default: nil
        }
    }

    private static func dpopCredentials(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "dpop" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The claims of the request's DPoP proof, unverified: the provider verified it, or refused it.
    static func claims(of request: ProviderRequest) -> JSONValue? {
        guard let proof = request.header("DPoP") else { return nil }
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(parts[1]) else { return nil }
        return JSONValue.parse(String(decoding: data, as: UTF8.self))
    }
}
