import Synchronization

/// The nonces the authorization server and the resource server hand out (RFC 9449 §8, §9): one
/// current nonce per server, replaced when a rule renews it or after `rotatesEvery` accepted proofs.
/// Values name their server and ordinal (`as-nonce-2`, `rs-nonce-1`) so timelines read plainly.
final class DPoPNonces: Sendable {
    private struct Issued {
        var ordinal = 0
        var acceptedWithCurrent = 0
    }

    private let state = Mutex<[DPoPPolicy.NonceServer: Issued]>([:])

    static func value(_ server: DPoPPolicy.NonceServer, _ ordinal: Int) -> String {
        (server == .token ? "as-nonce-" : "rs-nonce-") + String(ordinal)
    }

    /// The server's nonce now, issuing its first one when it has none yet.
    func current(_ server: DPoPPolicy.NonceServer) -> String {
        state.withLock { state in
            if state[server, default: Issued()].ordinal == 0 { state[server, default: Issued()].ordinal = 1 }
            return Self.value(server, state[server, default: Issued()].ordinal)
        }
    }

    /// Replaces the server's nonce; the previous one is refused from now on.
    func renew(_ server: DPoPPolicy.NonceServer) -> String {
        state.withLock { state in
            state[server, default: Issued()].ordinal += 1
            state[server, default: Issued()].acceptedWithCurrent = 0
            return Self.value(server, state[server, default: Issued()].ordinal)
        }
    }

    /// Counts a proof accepted with the current nonce; returns the new nonce when that was the
    /// last the current one allows (§8.2: it goes out in the `DPoP-Nonce` header of the success).
    func accepted(_ server: DPoPPolicy.NonceServer, rotatesEvery: Int?) -> String? {
        guard let rotatesEvery else { return nil }
        return state.withLock { state in
            state[server, default: Issued()].acceptedWithCurrent += 1
            guard state[server, default: Issued()].acceptedWithCurrent >= rotatesEvery else { return nil }
            state[server, default: Issued()].ordinal += 1
            state[server, default: Issued()].acceptedWithCurrent = 0
            return Self.value(server, state[server, default: Issued()].ordinal)
        }
    }
}
