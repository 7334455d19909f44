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
    ]

    private static func modified(_ change: (inout ClientBehaviour) -> Void) -> ClientBehaviour {
        var behaviour = ClientBehaviour.conforming
        change(&behaviour)
        return behaviour
    }
}
