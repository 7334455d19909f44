import Foundation
import MockProvider

/// An instant of virtual time written in terms of what happened and what the client declared:
/// `expiry(access_token#1) - client.refresh_window + 1s`.
public struct TimeExpression: Sendable, Equatable, CustomStringConvertible {
    public enum Term: Sendable, Equatable {
        case duration(Duration)
        /// When the token expires, by the lifetime the provider gave it.
        case expiry(TokenReference)
        /// When the token was issued.
        case issued(TokenReference)
        /// The refresh window the client declares in its profile; zero for a client that declares
        /// none (no proactive refresh: it refreshes at expiry at the earliest).
        case clientRefreshWindow
        /// The shortest time the client declares between two JWKS fetches prompted by a `kid` it
        /// does not know (`policies.jwks_refetch_interval`); scenarios naming it are skipped for a
        /// client that declares none.
        case clientJWKSRefetchInterval
    }

    public struct SignedTerm: Sendable, Equatable {
        public var negated: Bool
        public var term: Term
        public init(negated: Bool = false, _ term: Term) {
            self.negated = negated
            self.term = term
        }
    }

    public var terms: [SignedTerm]

    public init(_ terms: [SignedTerm]) {
        self.terms = terms
    }

    public var description: String {
        terms.enumerated().map { index, signed in
            let text = Self.text(of: signed.term)
            if index == 0 { return signed.negated ? "-\(text)" : text }
            return (signed.negated ? "- " : "+ ") + text
        }.joined(separator: " ")
    }

    static func text(of term: Term) -> String {
        switch term {
        case .duration(let amount): DurationText.format(amount)
        case .expiry(let token): "expiry(\(token))"
        case .issued(let token): "issued(\(token))"
        case .clientRefreshWindow: "client.refresh_window"
        case .clientJWKSRefetchInterval: "client.jwks_refetch_interval"
        }
    }
}

/// What an expression needs from a run to become an instant.
public struct TimeContext: Sendable {
    public var issuedTokens: [IssuedToken]
    public var clientRefreshWindow: Duration?
    public var clientJWKSRefetchInterval: Duration?

    public init(
        issuedTokens: [IssuedToken],
        clientRefreshWindow: Duration?,
        clientJWKSRefetchInterval: Duration? = nil
    ) {
        self.issuedTokens = issuedTokens
        self.clientRefreshWindow = clientRefreshWindow
        self.clientJWKSRefetchInterval = clientJWKSRefetchInterval
    }
}

extension TimeExpression {
    /// The instant, or why there is none yet (a token not issued, a window not declared).
    public func evaluate(in context: TimeContext) -> Result<Duration, TimeExpressionProblem> {
        var total = Duration.zero
        for signed in terms {
            let value: Duration
            switch signed.term {
            case .duration(let amount):
                value = amount
            case .expiry(let reference):
                guard let token = reference.resolve(in: context.issuedTokens) else {
                    return .failure(.init("\(reference) was never issued", unissued: reference))
                }
                guard let expiry = token.expiresAt else {
                    return .failure(.init("\(reference) has no expiry"))
                }
                value = expiry
            case .issued(let reference):
                guard let token = reference.resolve(in: context.issuedTokens) else {
                    return .failure(.init("\(reference) was never issued", unissued: reference))
                }
                value = token.issuedAt
            case .clientRefreshWindow:
                value = context.clientRefreshWindow ?? .zero
            case .clientJWKSRefetchInterval:
                guard let interval = context.clientJWKSRefetchInterval else {
                    return .failure(.init("the client declares no jwks_refetch_interval"))
                }
                value = interval
            }
            total += signed.negated ? .zero - value : value
        }
        return .success(total)
    }
}

public struct TimeExpressionProblem: Error, Sendable, Equatable {
    public var message: String
    /// The token the expression names that the provider never issued: the client did not get as
    /// far as the scenario assumes, which is a verdict on the client, not a fault of the run.
    public var unissued: TokenReference?

    init(_ message: String, unissued: TokenReference? = nil) {
        self.message = message
        self.unissued = unissued
    }
}

extension TimeExpression {
    public struct SyntaxError: Error, Sendable, Equatable {
        public var message: String
        /// 0-based offset in the text where the problem starts.
        public var offset: Int
    }

    /// Parses `term (("+" | "-") term)*`, where a term is a duration, `expiry(TOKEN)`,
    /// `issued(TOKEN)` or `client.refresh_window`, and TOKEN is `access_token#N` or `refresh_token#N`.
    public static func parse(_ text: String) -> Result<TimeExpression, SyntaxError> {
        var scanner = ExpressionScanner(text)
        var terms: [SignedTerm] = []
        var negated = scanner.consume("-")
        repeat {
            scanner.skipSpaces()
            switch parseTerm(&scanner) {
            case .success(let term): terms.append(SignedTerm(negated: negated, term))
            case .failure(let error): return .failure(error)
            }
            scanner.skipSpaces()
            if scanner.isAtEnd { return .success(TimeExpression(terms)) }
            if scanner.consume("+") {
                negated = false
            } else if scanner.consume("-") {
                negated = true
            } else {
                return .failure(
                    SyntaxError(message: "expected '+' or '-' before '\(scanner.rest)'", offset: scanner.offset)
                )
            }
        } while true
    }

    private static let termHelp =
        "expected a duration (e.g. 5s), expiry(access_token#1), issued(access_token#1), client.refresh_window or client.jwks_refetch_interval"

    private static func parseTerm(_ scanner: inout ExpressionScanner) -> Result<Term, SyntaxError> {
        let start = scanner.offset
        if scanner.consume("client.refresh_window") { return .success(.clientRefreshWindow) }
        if scanner.consume("client.jwks_refetch_interval") { return .success(.clientJWKSRefetchInterval) }
        for (name, make) in [("expiry", Term.expiry), ("issued", Term.issued)] where scanner.consume(name + "(") {
            let referenceStart = scanner.offset
            let inner = scanner.take { $0 != ")" }
            guard scanner.consume(")") else {
                return .failure(SyntaxError(message: "missing ')' after \(name)(", offset: scanner.offset))
            }
            switch TokenReference.parse(inner) {
            case .some(let reference): return .success(make(reference))
            case .none:
                return .failure(
                    SyntaxError(
                        message: "'\(inner)' is not a token; write access_token#N or refresh_token#N",
                        offset: referenceStart
                    )
                )
            }
        }
        let word = scanner.take { !$0.isWhitespace && $0 != "+" && $0 != "-" }
        guard !word.isEmpty else { return .failure(SyntaxError(message: termHelp, offset: start)) }
        switch DurationText.parse(word) {
        case .success(let amount): return .success(.duration(amount))
        case .failure: return .failure(SyntaxError(message: "'\(word)': \(termHelp)", offset: start))
        }
    }
}

extension TokenReference {
    /// Parses `access_token#N` or `refresh_token#N`, N ≥ 1, the app server's `app_access_token#N`
    /// and `app_refresh_token#N`, and the second authorization server's `as2_access_token#N` and
    /// `as2_refresh_token#N`. (`#` rather than brackets, which YAML flow
    /// mappings such as `{ refresh_token: refresh_token#1 }` would reject unquoted.)
    public static func parse(_ text: String) -> TokenReference? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].allSatisfy(\.isNumber), let ordinal = Int(parts[1]), ordinal >= 1 else {
            return nil
        }
        let name = String(parts[0])
        for server in [IssuedToken.Server.appServer, .secondAuthorizationServer, .provider]
        where name.hasPrefix(server.labelPrefix) {
            guard let kind = IssuedToken.Kind(rawValue: String(name.dropFirst(server.labelPrefix.count))) else {
                return nil
            }
            return TokenReference(kind, ordinal, server: server)
        }
        return nil
    }
}

/// A cursor over expression text.
private struct ExpressionScanner {
    private let characters: [Character]
    private(set) var offset = 0

    init(_ text: String) { characters = Array(text) }

    var isAtEnd: Bool { offset >= characters.count }
    var rest: String { String(characters[offset...]) }

    mutating func skipSpaces() {
        while !isAtEnd, characters[offset].isWhitespace { offset += 1 }
    }

    mutating func consume(_ literal: String) -> Bool {
        let literalCharacters = Array(literal)
        guard characters.count - offset >= literalCharacters.count,
            Array(characters[offset..<offset + literalCharacters.count]) == literalCharacters
        else { return false }
        offset += literalCharacters.count
        return true
    }

    mutating func take(while predicate: (Character) -> Bool) -> String {
        let start = offset
        while !isAtEnd, predicate(characters[offset]) { offset += 1 }
        return String(characters[start..<offset])
    }
}
