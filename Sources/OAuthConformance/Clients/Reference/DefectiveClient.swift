/// A variant of the reference client with one realistic bug. It declares the reference client's
/// profile, as a buggy library claims to conform, so only the verdicts can expose it.
public struct DefectiveClient: Sendable {
    public var name: String
    public var bug: String
    public var behaviour: ClientBehaviour

    public var factory: ReferenceClientFactory {
        ReferenceClientFactory(behaviour: behaviour, name: "reference+\(name)")
    }

    public static let catalogue: [DefectiveClient] = [
        DefectiveClient(
            name: "no-refresh-leeway",
            bug: "refreshes only once the access token has expired, ignoring its declared window",
            behaviour: modified { $0.refreshLeeway = .zero }
        ),
        DefectiveClient(
            name: "premature-refresh",
            bug: "refreshes far earlier than its declared window (a leeway of a whole day)",
            behaviour: modified { $0.refreshLeeway = .seconds(86_400) }
        ),
        DefectiveClient(
            name: "ignores-expires-in",
            bug: "treats every access token as never expiring and relies on 401s to find out",
            behaviour: modified { $0.readsExpiresIn = false }
        ),
        DefectiveClient(
            name: "no-refresh-on-401",
            bug: "surfaces a 401 invalid_token without refreshing",
            behaviour: modified { $0.unauthorizedRecovery = .none }
        ),
        DefectiveClient(
            name: "stale-token-replay",
            bug: "refreshes after a 401 but replays the request with the rejected token",
            behaviour: modified { $0.unauthorizedRecovery = .replayWithStaleToken }
        ),
        DefectiveClient(
            name: "drops-absent-refresh-token",
            bug: "forgets its refresh token when a refresh response carries none",
            behaviour: modified { $0.keepsRefreshTokenWhenAbsent = false }
        ),
        DefectiveClient(
            name: "no-single-flight",
            bug: "lets every concurrent caller start its own refresh with the same refresh token",
            behaviour: modified { $0.sharesOneRefresh = false }
        ),
        DefectiveClient(
            name: "token-in-query",
            bug: "sends the access token as an access_token query parameter instead of the Authorization header",
            behaviour: modified { $0.accessTokenPlacement = .queryParameter }
        ),
        DefectiveClient(
            name: "refresh-token-to-resource",
            bug: "sends its refresh token to the resource server in an X-Refresh-Token header",
            behaviour: modified { $0.keepsRefreshTokenFromResource = false }
        ),
        DefectiveClient(
            name: "retries-token-errors",
            bug: "sends a refused grant again, as if an RFC 6749 §5.2 error were a transient failure",
            behaviour: modified { $0.retriesTokenErrors = true }
        ),
        DefectiveClient(
            name: "swallows-error-codes",
            bug: "reports every token endpoint error as a generic failure, losing the RFC 6749 §5.2 code",
            behaviour: modified { $0.reportsErrorCodes = false }
        ),
        DefectiveClient(
            name: "no-pkce",
            bug: "runs the authorization code flow without PKCE, so an intercepted code can be redeemed by anyone",
            behaviour: modified { $0.pkce = .none }
        ),
        DefectiveClient(
            name: "pkce-plain",
            bug: "uses the PKCE plain method, putting the verifier itself in the authorization URL",
            behaviour: modified { $0.pkce = .plain }
        ),
        DefectiveClient(
            name: "no-state-check",
            bug: "redeems the code of an authorization response whatever its state (login CSRF)",
            behaviour: modified { $0.checksState = false }
        ),
        DefectiveClient(
            name: "predictable-state",
            bug: "sends the same fixed state with every authorization request",
            behaviour: modified { $0.unguessableState = false }
        ),
        DefectiveClient(
            name: "no-iss-check",
            bug: "ignores the authorization response's iss, open to mix-up attacks (RFC 9207)",
            behaviour: modified { $0.checksIssuer = false }
        ),
        DefectiveClient(
            name: "follows-redirects-with-credentials",
            bug: "follows redirects by sending the same request, Authorization header and body included, to the new location",
            behaviour: modified { $0.followsRedirects = true }
        ),
        DefectiveClient(
            name: "accepts-any-certificate",
            bug: "switches certificate verification off, so any server can collect its credentials",
            behaviour: modified { $0.verifiesCertificates = false }
        ),
        DefectiveClient(
            name: "rotated-refresh-token-not-persisted",
            bug: "keeps a rotated refresh token in memory only, so after a restart it presents the superseded one",
            behaviour: modified { $0.persistsRefreshedTokens = false }
        ),
    ]

    private static func modified(_ change: (inout ClientBehaviour) -> Void) -> ClientBehaviour {
        var behaviour = ClientBehaviour.conforming
        change(&behaviour)
        return behaviour
    }
}
