import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// The transport: no redirect followed, pins checked, TLS failures told apart.
extension ReferenceClient {
    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: String
    }

    func send(method: String, url: String, bearer: String, body: String? = nil) async throws -> Answer {
        var target = url
        var query: [(String, String)] = []
        if behaviour.accessTokenPlacement == .queryParameter { query.append(("access_token", bearer)) }
        if !behaviour.keepsClientSecretFromResource {
            query += [("client_id", environment.client.id), ("client_secret", environment.client.secret)]
        }
        if !query.isEmpty { target += (url.contains("?") ? "&" : "?") + FormEncoding.encode(query) }
        var request = HTTPClientRequest(url: target)
        request.method = HTTPMethod(rawValue: method)
        Self.attach(json: body, to: &request)
        if !behaviour.keepsRefreshTokenFromResource, let refreshToken = tokens?.refreshToken {
            request.headers.add(name: "X-Refresh-Token", value: refreshToken)
        }
        guard let dpop, tokens?.dpopBound == true, behaviour.dpop.presentsBoundTokensWithProof else {
            if behaviour.accessTokenPlacement == .authorizationHeader {
                request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
            }
            return try await exchange(request)
        }
        // RFC 9449 §7.1: the DPoP scheme, and a proof of this request by the token's key; §9: a
        // nonce the resource demands is added in a new proof, as often as `nonceRetries` allows.
        request.headers.add(name: "Authorization", value: "DPoP \(bearer)")
        let server = DPoPNonceBook.Server.resource(at: url)
        var nonceRetries = 0
        while true {
            var proved = request
            let proof = try await dpop.proof(
                method: method,
                url: target,
                accessToken: bearer,
                server: server,
                now: now()
            )
            proved.headers.add(name: "DPoP", value: proof)
            let answer = try await exchange(proved)
            let demanded = await dpop.noteAnswer(
                status: answer.status,
                headers: answer.headers,
                body: answer.body,
                from: server
            )
            guard demanded, nonceRetries < dpop.nonceRetries else { return answer }
            nonceRetries += 1
        }
    }

    /// Sends the request and reads the answer. The conforming client stops at a redirect and
    /// reports it; the defect that follows redirects sends the same request, credentials and all,
    /// to wherever `Location` points.
    func exchange(_ request: HTTPClientRequest) async throws -> Answer {
        var request = request
        var redirectsFollowed = 0
        while true {
            try await requirePinnedKey(for: request.url)
            let response = try await http.execute(request, timeout: requestTimeout)
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            let answer = Answer(
                status: Int(response.status.code),
                headers: response.headers,
                body: String(buffer: body)
            )
            guard behaviour.followsRedirects, redirectsFollowed < Self.mostRedirectsFollowed,
                (300..<400).contains(answer.status),
                let location = response.headers.first(name: "Location")
            else { return answer }
            request.url = location
            redirectsFollowed += 1
        }
    }

    static let mostRedirectsFollowed = 3

    /// Before the first request to an HTTPS origin, its certificate must carry the pinned key.
    func requirePinnedKey(for url: String) async throws {
        guard let pin, let components = URLComponents(string: url), components.scheme == "https",
            let host = components.host
        else { return }
        let origin = "\(host):\(components.port ?? 443)"
        guard !pinnedOriginsVerified.contains(origin) else { return }
        try await pin.verify(host: host, port: components.port ?? 443)
        pinnedOriginsVerified.insert(origin)
    }

    /// RFC 6750 §3.1: a Bearer challenge with `invalid_token`, or with no error code at all; and
    /// RFC 9449 §7.1's DPoP challenge alike.
    static func isInvalidTokenChallenge(_ headers: HTTPHeaders) -> Bool {
        headers["WWW-Authenticate"].contains { challenge in
            let lowered = challenge.lowercased()
            guard lowered.hasPrefix("bearer") || lowered.hasPrefix("dpop") else { return false }
            return !lowered.contains("error=") || lowered.contains("error=\"invalid_token\"")
        }
    }

    static func transportFailure(_ error: any Error) -> ClientFailure {
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError
            || error is PublicKeyPin.Mismatch
        {
            return ClientFailure(.tls, message: "TLS handshake refused: \(error)")
        }
        return ClientFailure(.transient, message: "transport error: \(error)")
    }

    static func outcome(of result: Result<TokenSet, ClientFailure>) -> ClientOutcome {
        switch result {
        case .success: .success(status: 200, body: "")
        case .failure(let failure): .failure(failure)
        }
    }
}
