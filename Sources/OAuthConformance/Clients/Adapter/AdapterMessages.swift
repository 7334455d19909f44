import Foundation
import MockProvider

/// The adapter protocol's messages, as docs/adapter-protocol/messages.md describes them: one JSON object
/// a line; the harness asks, the adapter answers with the same `id`.
public enum AdapterProtocol {
    /// The version this harness speaks; `hello` carries it, and an adapter that speaks another is refused.
    public static let version = 1
    /// Longest line the harness reads from an adapter; past it the adapter is broken, not chatty.
    static let longestLine = 4 << 20
}

/// Why an adapter could not be driven: the cause an error verdict names.
struct AdapterFault: Error, Sendable, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}

/// One message from the harness.
struct AdapterRequest: Sendable {
    var id: Int
    var op: AdapterOp
    /// The virtual time the adapter acts at; absent only in `hello`, before any scenario.
    var now: Date?
    var fields: [String: JSONValue] = [:]

    var line: String {
        var members = fields
        members["id"] = .integer(id)
        members["op"] = .string(op.rawValue)
        if let now { members["now"] = .number(Self.unixSeconds(now)) }
        return JSONValue.object(members).serialized()
    }

    /// Unix seconds, to the millisecond: what `now` carries and the faketime file holds.
    static func unixSeconds(_ date: Date) -> Double {
        (date.timeIntervalSince1970 * 1000).rounded() / 1000
    }
}

/// One answer from the adapter: `ok: true` with the operation's fields, `ok: false` with an
/// `error` (the client failed, which is a result), or a `fault` (the adapter failed, which is not).
struct AdapterReply: Sendable {
    var id: Int
    var members: [String: JSONValue]

    /// Parses a line of the adapter's stdout; anything but an answer to `request` is a fault.
    static func parse(_ line: String, answering request: AdapterRequest) -> Result<AdapterReply, AdapterFault> {
        guard case .object(let members)? = JSONValue.parse(line) else {
            return .failure(
                AdapterFault("the adapter wrote something that is not a JSON object to stdout: \(quoted(line))")
            )
        }
        guard case .integer(let id)? = members["id"] else {
            return .failure(AdapterFault("the adapter answered \(request.op) without an integer id: \(quoted(line))"))
        }
        guard id == request.id else {
            return .failure(
                AdapterFault(
                    "the adapter answered id \(id) while the harness waited for id \(request.id) (\(request.op))"
                )
            )
        }
        if let fault = members["fault"] {
            return .failure(
                AdapterFault(
                    "the adapter reported a fault in \(request.op): \(fault.stringValue ?? fault.serialized())"
                )
            )
        }
        guard case .bool? = members["ok"] else {
            return .failure(
                AdapterFault("the adapter's answer to \(request.op) has no ok: true or false: \(quoted(line))")
            )
        }
        return .success(AdapterReply(id: id, members: members))
    }

    var succeeded: Bool { members["ok"] == .bool(true) }

    /// A login, request, restart or authorization: success with status and body, or the client's error.
    func outcome(of op: String) -> Result<ClientOutcome, AdapterFault> {
        if succeeded {
            var status = 200
            if let value = members["status"] {
                guard case .integer(let code) = value, (100...599).contains(code) else {
                    return .failure(
                        AdapterFault(
                            "the adapter's answer to \(op) has a status that is not an HTTP status: \(value.serialized())"
                        )
                    )
                }
                status = code
            }
            let body: String
            switch members["body"] {
            case nil, .null?: body = ""
            case .string(let text)?: body = text
            case let other?: body = other.serialized()
            }
            return .success(.success(status: status, body: body))
        }
        return failure(of: op).map(ClientOutcome.failure)
    }

    /// The client's error in an `ok: false` answer: what the library surfaced (`status`,
    /// `oauth_error`, `type`, `message`) and the adapter's `category` for what those do not tell.
    /// The category is `SurfacedError`'s: the status or the code decides when it can, and the
    /// adapter's category is needed only when neither does.
    func failure(of op: String) -> Result<ClientFailure, AdapterFault> {
        guard case .object(let error)? = members["error"] else {
            return .failure(AdapterFault("the adapter's answer to \(op) has ok: false but no error object"))
        }
        var reported: ErrorCategory?
        if let name = error["category"]?.stringValue {
            guard let category = ErrorCategory(rawValue: name) else {
                let known = ErrorCategory.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(
                    AdapterFault("the adapter's error for \(op) has the unknown category '\(name)' (known: \(known))")
                )
            }
            reported = category
        }
        var status: Int?
        if let value = error["status"], value != .null {
            guard case .integer(let code) = value, (100...599).contains(code) else {
                return .failure(
                    AdapterFault(
                        "the adapter's error for \(op) has a status that is not an HTTP status: \(value.serialized())"
                    )
                )
            }
            status = code
        }
        let code = error["oauth_error"]?.stringValue
        guard let category = SurfacedError(status: status, oauthError: code, reportedCategory: reported).category
        else {
            return .failure(
                AdapterFault(
                    "the adapter's error for \(op) has no category, and neither a 5xx or 429 status nor an oauth_error to derive one from"
                )
            )
        }
        return .success(
            ClientFailure(
                category,
                oauthError: code,
                status: status,
                message: error["message"]?.stringValue ?? "",
                errorType: error["type"]?.stringValue
            )
        )
    }

    /// A list of outcomes, one per operation of a `concurrently` message.
    func outcomes(count: Int) -> Result<[ClientOutcome], AdapterFault> {
        guard succeeded else { return failure(of: "concurrently").map { Array(repeating: .failure($0), count: count) } }
        guard case .array(let items)? = members["outcomes"], items.count == count else {
            return .failure(AdapterFault("the adapter's answer to concurrently needs outcomes, a list of \(count)"))
        }
        var outcomes: [ClientOutcome] = []
        for (index, item) in items.enumerated() {
            guard case .object(let fields) = item else {
                return .failure(
                    AdapterFault("outcome \(index + 1) of the adapter's answer to concurrently is not an object")
                )
            }
            // A batch has no browser between its calls: a library that needs the user there fails.
            if fields["ok"] == .bool(true), let url = fields["authorization_url"]?.stringValue {
                outcomes.append(
                    .failure(
                        ClientFailure(
                            .unexpected,
                            message:
                                "operation \(index + 1) of concurrently asked the user to authorize at \(url.prefix(200)), which the operations of one concurrently step cannot"
                        )
                    )
                )
                continue
            }
            switch AdapterReply(id: id, members: fields).outcome(of: "concurrently (operation \(index + 1))") {
            case .success(let outcome): outcomes.append(outcome)
            case .failure(let fault): return .failure(fault)
            }
        }
        return .success(outcomes)
    }

    /// The `tokens` answer: `null`, or access token, refresh token and expiry (Unix seconds).
    func storedTokens() -> Result<StoredTokens?, AdapterFault> {
        guard succeeded else { return .success(nil) }
        switch members["tokens"] {
        case nil, .null?:
            return .success(nil)
        case .object(let tokens)?:
            guard let access = tokens["access_token"]?.stringValue else {
                return .failure(AdapterFault("the adapter's tokens have no access_token"))
            }
            var expiresAt: Date?
            switch tokens["expires_at"] {
            case nil, .null?: break
            case let value?:
                guard let seconds = NumericDate.seconds(value) else {
                    return .failure(
                        AdapterFault(
                            "the adapter's tokens have an expires_at that is not \(NumericDate.expected): \(value.serialized())"
                        )
                    )
                }
                expiresAt = Date(timeIntervalSince1970: seconds)
            }
            return .success(
                StoredTokens(
                    accessToken: access,
                    refreshToken: tokens["refresh_token"]?.stringValue,
                    expiresAt: expiresAt
                )
            )
        case let other?:
            return .failure(AdapterFault("the adapter's tokens are neither an object nor null: \(other.serialized())"))
        }
    }

    /// The longest wait a `device_poll` answer may ask for: a day, as long as the runner polls at
    /// all. A longer wait could only end the polling, and one of 1e300 seconds fits no clock.
    static let longestDevicePollWait = Duration.seconds(86_400)

    /// The `wait` of a `device_poll` answer, when the flow goes on: seconds, from 0 to
    /// `longestDevicePollWait`. `nil` when the answer has no wait: the flow has ended.
    func devicePollWait(of op: String) -> Result<Duration, AdapterFault>? {
        guard succeeded, let wait = members["wait"] else { return nil }
        let longest = Self.longestDevicePollWait
        let seconds: Double? =
            switch wait {
            case .integer(let whole): Double(whole)
            case .number(let fractional): fractional
            default: nil
            }
        guard let seconds, (0...longest.seconds).contains(seconds) else {
            return .failure(
                AdapterFault(
                    "the adapter's answer to \(op) has a wait that is not seconds from 0 to \(Int(longest.seconds)): \(wait.serialized())"
                )
            )
        }
        return .success(.milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// The `identity` answer: `null`, or the `iss` and `sub` of the ID token the client accepted.
    /// A claim the accepted token lacked is `null` (or left out): the client holds a user with it
    /// missing, which the checks judge (a failure, not a broken adapter).
    func identity() -> Result<SignedInIdentity?, AdapterFault> {
        guard succeeded else { return .success(nil) }
        switch members["identity"] {
        case nil, .null?:
            return .success(nil)
        case .object(let identity)?:
            func claim(_ name: String) -> String?? {
                switch identity[name] {
                case nil, .null?: .some(nil)
                case .string(let value)?: .some(value)
                default: nil
                }
            }
            guard let issuer = claim("iss"), let subject = claim("sub") else {
                return .failure(
                    AdapterFault(
                        "the adapter's identity needs iss and sub as strings (or null for a claim the token lacked): \(JSONValue.object(identity).serialized())"
                    )
                )
            }
            return .success(
                SignedInIdentity(
                    issuer: issuer ?? SignedInIdentity.missingClaim,
                    subject: subject ?? SignedInIdentity.missingClaim
                )
            )
        case let other?:
            return .failure(AdapterFault("the adapter's identity is neither an object nor null: \(other.serialized())"))
        }
    }

    /// A line quoted for a message: cut to 200 characters, control characters escaped.
    static func quoted(_ line: String) -> String {
        let cut = line.count > 200 ? String(line.prefix(200)) + "…" : line
        return JSONValue.string(cut).serialized()
    }
}

/// What an adapter says about itself in its answer to `hello`.
struct AdapterIdentity: Sendable, Equatable {
    var name: String
    var version: String
    var capabilities: [String]

    static func parse(_ reply: AdapterReply) -> Result<AdapterIdentity, AdapterFault> {
        guard reply.succeeded else {
            let reason = reply.members["error"]?["message"]?.stringValue ?? "no reason given"
            return .failure(AdapterFault("the adapter refused the handshake: \(reason)"))
        }
        guard case .integer(let version)? = reply.members["protocol"] else {
            return .failure(AdapterFault("the adapter's hello answer has no protocol version"))
        }
        guard version == AdapterProtocol.version else {
            return .failure(
                AdapterFault(
                    "the adapter speaks protocol version \(version); this harness speaks version \(AdapterProtocol.version)"
                )
            )
        }
        guard let name = reply.members["name"]?.stringValue, let libraryVersion = reply.members["version"]?.stringValue
        else {
            return .failure(AdapterFault("the adapter's hello answer needs name and version (of the client library)"))
        }
        guard case .array(let items)? = reply.members["capabilities"] else {
            return .failure(AdapterFault("the adapter's hello answer needs capabilities, a list"))
        }
        return .success(
            AdapterIdentity(name: name, version: libraryVersion, capabilities: items.compactMap(\.stringValue))
        )
    }
}
