import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// Leg 2 of a third-party sign-in: the ID token traded at the app's own server for its tokens.
extension ReferenceClient {
    func exchangeSignIn() async -> ClientOutcome {
        let session = appServerSession ?? makeAppServerSession()
        appServerSession = session
        let subject: AppServerSession.SubjectToken
        switch await subjectTokenForExchange() {
        case .success(let ready): subject = ready
        case .failure(let failure): return .failure(failure)
        }
        switch await session.exchange(subject) {
        case .success:
            return .success(status: 200, body: "")
        case .failure(let refusal) where !behaviour.tokenExchange.reportsLeg2Refusals:
            // The defect's application reads every failure of the flow as a lost sign-in.
            await relyingParty?.signOut()
            return .failure(ClientFailure(.authorizationRequired, message: "sign-in failed: \(refusal.message)"))
        case .failure(let refusal):
            return .failure(refusal)
        }
    }

    /// Leg 1's product for leg 2: the accepted ID token, renewed at the provider when it has
    /// expired (TL-04: never an expired one); with nobody signed in, nothing, and no request.
    func subjectTokenForExchange() async -> Result<AppServerSession.SubjectToken, ClientFailure> {
        let exchange = behaviour.tokenExchange
        if !exchange.sendsIDTokenAsSubject, let accessToken = tokens?.accessToken {
            return .success(.init(value: accessToken, type: TokenTypeURI.accessToken))
        }
        let notSignedIn = ClientFailure(
            .authorizationRequired,
            message: "nobody is signed in with the provider (leg 1): nothing to exchange"
        )
        guard let relyingParty else { return .failure(notSignedIn) }
        if !exchange.exchangesAcceptedIDTokenOnly, let received = await relyingParty.lastReceivedIDToken {
            return .success(.init(value: received, type: TokenTypeURI.idToken))
        }
        guard let current = await relyingParty.signedInIDToken, let accepted = await relyingParty.signedIn else {
            return .failure(notSignedIn)
        }
        guard exchange.renewsExpiredIDToken, let expiry = accepted.expiresAt, now() >= expiry else {
            return .success(.init(value: current, type: TokenTypeURI.idToken))
        }
        // OIDC Core §12.2: the provider's refresh brings a new ID token for the same sign-in.
        if case .failure(let failure) = await refresh() { return .failure(failure) }
        guard let renewed = await relyingParty.signedInIDToken, renewed != current else {
            return .failure(
                ClientFailure(
                    .authorizationRequired,
                    message: "the ID token expired and the provider's refresh brought no new one: sign in again"
                )
            )
        }
        return .success(.init(value: renewed, type: TokenTypeURI.idToken))
    }

    func makeAppServerSession() -> AppServerSession {
        AppServerSession(
            tokenEndpointURL: environment.endpoints.appServerToken,
            clientID: environment.client.id,
            behaviour: behaviour.tokenExchange,
            interpreter: interpreter,
            refreshLeeway: behaviour.refreshLeeway,
            now: now,
            // Weak: the session lives inside this client and must not keep it alive.
            postForm: { [weak self] url, form in
                guard let self else { return .failure(ClientFailure(.unexpected, message: "the client is gone")) }
                return await self.appServerCall(url: url, method: "POST", form: form, bearer: nil)
            },
            sendBearer: { [weak self] method, url, token in
                guard let self else { return .failure(ClientFailure(.unexpected, message: "the client is gone")) }
                return await self.appServerCall(url: url, method: method, form: nil, bearer: token)
            },
            freshSubjectToken: { [weak self] in
                guard let self else { return .failure(ClientFailure(.unexpected, message: "the client is gone")) }
                return await self.subjectTokenForExchange()
            }
        )
    }

    /// One call to the app server through the client's own transport.
    func appServerCall(
        url: String,
        method: String,
        form: [(String, String)]?,
        bearer: String?
    ) async -> Result<AppServerSession.Answer, ClientFailure> {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Accept", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        }
        do {
            let answer = try await exchange(request)
            return .success(
                .init(
                    status: answer.status,
                    body: answer.body,
                    serverDate: answer.headers["Date"].first.flatMap(Self.httpDate),
                    invalidTokenChallenge: answer.status == 401 && Self.isInvalidTokenChallenge(answer.headers)
                )
            )
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }
}
