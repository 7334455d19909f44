import Foundation
import NIOHTTP1

/// The reference client's DPoP state (RFC 9449): its key, the nonces its servers handed out, and
/// the proof each request carries, as its `DPoPBehaviour` says.
actor DPoPSession {
    private let behaviour: DPoPBehaviour
    private var prover: DPoPProver?
    private var nonces = DPoPNonceBook()
    /// The first proof per method and URL, for the defect that sends it again.
    private var sentProofs: [String: String] = [:]

    init(behaviour: DPoPBehaviour) {
        self.behaviour = behaviour
    }

    /// The `DPoP` header for a request: a proof for its method and URL, with `ath` when it
    /// presents a bound token, and the nonce its server gave last.
    func proof(
        method: String,
        url: String,
        accessToken: String?,
        server: DPoPNonceBook.Server,
        now: Date
    )
        async throws -> String
    {
        let key = "\(method) \(url)"
        if !behaviour.freshProofPerRequest, let sent = sentProofs[key] { return sent }
        let prover = try await currentProver(
            renewed: server == .authorizationServer && !behaviour.keepsKeyAcrossRequests
        )
        let proof = try await prover.proof(
            method: method,
            url: url,
            accessToken: accessToken,
            nonce: nonces.nonce(for: bookKey(server)),
            issuedAt: now,
            keepingQuery: !behaviour.dropsQueryFromHTU
        )
        if sentProofs[key] == nil { sentProofs[key] = proof }
        return proof
    }

    /// Reads an answer: keeps its `DPoP-Nonce` (from a nonce demand only, for the defect), and
    /// says whether the request should go again with the new nonce.
    func noteAnswer(status: Int, headers: HTTPHeaders, body: String, from server: DPoPNonceBook.Server) -> Bool {
        let demand = DPoPNonceBook.isNonceDemand(status: status, headers: headers, body: body)
        if !demand, !behaviour.keepsNonceForLaterRequests { nonces.forget(bookKey(server)) }
        guard demand || behaviour.readsNonceFromEveryAnswer else { return false }
        let learned = nonces.note(headers, from: bookKey(server))
        return demand && learned
    }

    /// Where the nonce book files a server's nonce: under its own name, or (the defect) all under one.
    private func bookKey(_ server: DPoPNonceBook.Server) -> DPoPNonceBook.Server {
        behaviour.keepsNoncesPerServer ? server : .authorizationServer
    }

    /// How many times one request may go again for a nonce.
    nonisolated var nonceRetries: Int { behaviour.nonceRetries }

    private func currentProver(renewed: Bool) async throws -> DPoPProver {
        if !renewed, let prover { return prover }
        let made = try await DPoPProver()
        prover = made
        return made
    }
}
