// The reference client as an adapter process: the Swift example of docs/adapter-protocol.md, and
// the proof that driving a client out of process changes no verdict. It reads one JSON request a
// line from stdin and writes one JSON answer a line to stdout; anything else goes to stderr.
//
//   reference-adapter [--defect NAME]     (NAME from `conformance run --help`)

import Foundation
import MockProvider
import OAuthConformance

let factory: ReferenceClientFactory = {
    let arguments = CommandLine.arguments.dropFirst()
    guard arguments.first == "--defect", let name = arguments.dropFirst().first else { return ReferenceClientFactory() }
    guard let defect = DefectiveClient.catalogue.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("reference-adapter: unknown defect \(name)\n".utf8))
        exit(2)
    }
    return defect.factory
}()

/// The scenario in progress: the client, and the clock it reads, set from each message's `now`.
struct Session {
    var client: any ClientUnderTest
    var clock: VirtualClock
}

var session: Session?

/// One line on stdout, written at once (no buffer to forget to flush).
func answer(_ members: [String: JSONValue]) {
    FileHandle.standardOutput.write(Data((JSONValue.object(members).serialized() + "\n").utf8))
}

func outcome(_ outcome: ClientOutcome) -> [String: JSONValue] {
    switch outcome {
    case .success(let status, let body):
        return ["ok": .bool(true), "status": .integer(status), "body": .string(body)]
    case .failure(let failure):
        return ["ok": .bool(false), "error": error(failure)]
    }
}

func error(_ failure: ClientFailure) -> JSONValue {
    var error: [String: JSONValue] = [
        "category": .string(failure.category.rawValue), "message": .string(failure.message),
    ]
    if let code = failure.oauthError { error["oauth_error"] = .string(code) }
    if let status = failure.status { error["status"] = .integer(status) }
    return .object(error)
}

/// The harness's `now`; `nil` for anything but Unix seconds between 1970 and 9999, which no clock
/// could be moved to.
func date(_ value: JSONValue?) -> Date? {
    value.flatMap(NumericDate.seconds).map { Date(timeIntervalSince1970: $0) }
}

/// The reset message's environment, as the reference client takes it in process: decoded by
/// the type the harness encoded it from, reading the session's clock.
func environment(_ fields: JSONValue, clock: VirtualClock) -> ClientEnvironment? {
    let decoder = JSONDecoder()
    decoder.userInfo[.virtualClock] = clock
    return try? decoder.decode(ClientEnvironment.self, from: Data(fields.serialized().utf8))
}

/// A call of a login, request or restart message, alone or in a `concurrently` batch.
func call(_ message: JSONValue) -> ClientCall? {
    switch message["op"]?.stringValue {
    case "login": message["grant"]?.stringValue.flatMap(GrantType.init(rawValue:)).map(ClientCall.login)
    case "request":
        message["method"]?.stringValue.flatMap { method in
            message["url"]?.stringValue.map { ClientCall.request(method: method, url: $0) }
        }
    case "restart": .restart
    default: nil
    }
}

@MainActor
func handle(_ message: JSONValue) async -> [String: JSONValue] {
    let op = message["op"]?.stringValue ?? ""
    if op == "hello" {
        let profile = factory.profile
        return [
            "ok": .bool(true), "protocol": .integer(1), "name": .string(profile.name),
            "version": .string(profile.version),
            "capabilities": .array(profile.capabilities.map(\.rawValue).sorted().map(JSONValue.string)),
        ]
    }
    if op == "end" || op == "shutdown" {
        await session?.client.shutdown()
        session = nil
        return ["ok": .bool(true)]
    }
    guard let now = date(message["now"]) else { return ["fault": .string("\(op) has no now")] }
    if op == "reset" {
        await session?.client.shutdown()
        let clock = VirtualClock(origin: now)
        guard let fields = message["environment"], let environment = environment(fields, clock: clock) else {
            return ["fault": .string("reset has an incomplete environment")]
        }
        do {
            session = Session(client: try await factory.makeClient(for: environment), clock: clock)
        } catch {
            return ["fault": .string("could not make the client: \(error)")]
        }
        return ["ok": .bool(true)]
    }
    guard let session else { return ["fault": .string("\(op) before reset")] }
    // Virtual time only moves forward within a scenario; the client reads it from the clock.
    session.clock.advance(to: .milliseconds(Int64((now.timeIntervalSince(session.clock.origin) * 1000).rounded())))
    let client = session.client
    switch op {
    case "login", "request", "restart":
        guard let call = call(message) else { return ["fault": .string("\(op) is missing its fields")] }
        return outcome(await call.perform(on: client))
    case "concurrently":
        guard case .array(let operations)? = message["operations"] else {
            return ["fault": .string("concurrently needs operations")]
        }
        let calls = operations.compactMap(call)
        guard calls.count == operations.count else {
            return ["fault": .string("an operation of concurrently is not login, request or restart")]
        }
        let outcomes = await client.perform(concurrently: calls)
        return ["ok": .bool(true), "outcomes": .array(outcomes.map { JSONValue.object(outcome($0)) })]
    case "authorization_url", "sign_in_url":
        let produced = op == "sign_in_url" ? await client.signInURL() : await client.authorizationURL()
        switch produced {
        case .success(let url): return ["ok": .bool(true), "url": .string(url)]
        case .failure(let failure): return ["ok": .bool(false), "error": error(failure)]
        }
    case "complete_authorization", "complete_sign_in":
        guard let url = message["redirect_url"]?.stringValue else {
            return ["fault": .string("\(op) needs redirect_url")]
        }
        let completed =
            op == "complete_sign_in"
            ? await client.completeSignIn(redirectURL: url) : await client.completeAuthorization(redirectURL: url)
        return outcome(completed)
    case "userinfo":
        return outcome(await client.userinfo())
    case "exchange":
        return outcome(await client.exchangeSignIn())
    case "device_authorization":
        switch await client.startDeviceAuthorization() {
        case .success(let prompt):
            return [
                "ok": .bool(true), "user_code": .string(prompt.userCode),
                "verification_uri": .string(prompt.verificationURI),
                "verification_uri_complete": prompt.verificationURIComplete.map(JSONValue.string) ?? .null,
            ]
        case .failure(let failure): return ["ok": .bool(false), "error": error(failure)]
        }
    case "device_poll":
        switch await client.pollDeviceAuthorization() {
        case .waiting(let wait): return ["ok": .bool(true), "wait": .number(wait.seconds)]
        case .finished(let finished): return outcome(finished)
        }
    case "identity":
        guard let identity = await client.identity() else { return ["ok": .bool(true), "identity": .null] }
        return [
            "ok": .bool(true),
            "identity": .object(["iss": .string(identity.issuer), "sub": .string(identity.subject)]),
        ]
    case "tokens":
        guard let tokens = await client.storedTokens() else { return ["ok": .bool(true), "tokens": .null] }
        return [
            "ok": .bool(true),
            "tokens": .object([
                "access_token": .string(tokens.accessToken),
                "refresh_token": tokens.refreshToken.map(JSONValue.string) ?? .null,
                "expires_at": tokens.expiresAt.map { .number($0.timeIntervalSince1970) } ?? .null,
            ]),
        ]
    case "advance":
        await client.clockAdvanced()
        return ["ok": .bool(true)]
    default:
        return ["ok": .bool(false), "error": error(ClientFailure(.unsupported, message: "unknown operation \(op)"))]
    }
}

while let line = readLine() {
    guard let message = JSONValue.parse(line), let id = message["id"] else {
        FileHandle.standardError.write(Data("reference-adapter: not a request: \(line)\n".utf8))
        continue
    }
    var reply = await handle(message)
    reply["id"] = id
    answer(reply)
    if message["op"]?.stringValue == "shutdown" { break }
}
