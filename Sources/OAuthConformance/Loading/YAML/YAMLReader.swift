import Foundation
import MockProvider
import Yams

/// Reads YAML nodes into model values. Every problem goes to the collector with the node's
/// position, and reading carries on, so one pass reports everything wrong with a file.
struct YAMLReader {
    let file: String
    let diagnostics: DiagnosticCollector

    func location(of node: Node) -> SourceLocation? {
        node.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
    }

    func error(_ message: String, at node: Node) {
        diagnostics.error(message, at: location(of: node))
    }

    /// A mapping whose keys are all in `allowedKeys`; unknown keys are reported with a suggestion.
    func mapping(_ node: Node, _ what: String, allowedKeys: [String]) -> CheckedMapping? {
        guard case .mapping(let mapping) = node else {
            error("\(what) must be a mapping with keys \(Self.list(allowedKeys)), not \(Self.describe(node))", at: node)
            return nil
        }
        var entries: [String: (key: Node, value: Node)] = [:]
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                error("a key in \(what) must be a plain word", at: key)
                continue
            }
            guard allowedKeys.contains(scalar.string) else {
                let suggestion = Suggestions.didYouMean(scalar.string, among: allowedKeys)
                let allowed = "(allowed: \(Self.list(allowedKeys)))"
                let name = ControlCharacters.visible(scalar.string)
                error("unknown key '\(name)' in \(what)\(suggestion) \(allowed)", at: key)
                continue
            }
            entries[scalar.string] = (key, value)
        }
        return CheckedMapping(node: node, entries: entries, what: what, reader: self)
    }

    func sequence(_ node: Node, _ what: String) -> [Node]? {
        guard case .sequence(let sequence) = node else {
            error("\(what) must be a list, not \(Self.describe(node))", at: node)
            return nil
        }
        return Array(sequence)
    }

    /// A list, or a single scalar taken as a list of one (`spec: RFC 6749 §6`).
    func scalarList(_ node: Node, _ what: String) -> [String] {
        if case .scalar = node { return string(node, what).map { [$0] } ?? [] }
        return (sequence(node, what) ?? []).compactMap { string($0, "an item of \(what)") }
    }

    func string(_ node: Node, _ what: String) -> String? {
        anyText(node, what).flatMap { printable($0, what, at: node) }
    }

    /// Text that stands for bytes, not words (`transport.garbage`): control characters are its point.
    func anyText(_ node: Node, _ what: String) -> String? {
        guard case .scalar(let scalar) = node, node.tagName != .null else {
            error("\(what) must be text, not \(Self.describe(node))", at: node)
            return nil
        }
        return scalar.string
    }

    func int(_ node: Node, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard case .scalar(let scalar) = node, node.tagName == .int, let value = Int(scalar.string) else {
            error("\(what) must be a whole number, not \(Self.describe(node))", at: node)
            return nil
        }
        guard range.contains(value) else {
            error("\(what) must be between \(range.lowerBound) and \(range.upperBound), not \(value)", at: node)
            return nil
        }
        return value
    }

    func bool(_ node: Node, _ what: String) -> Bool? {
        guard node.tagName == .bool, let value = node.bool else {
            error("\(what) must be true or false, not \(Self.describe(node))", at: node)
            return nil
        }
        return value
    }

    func duration(_ node: Node, _ what: String) -> Duration? {
        guard let text = scalarText(node, what, example: "120s") else { return nil }
        switch DurationText.parse(text) {
        case .success(let duration): return duration
        case .failure(let problem):
            error("\(what): \(problem.message)", at: node)
            return nil
        }
    }

    /// `[proactive_refresh, concurrency]`, or one capability alone: `requires:` in a scenario and
    /// beside a check, `capabilities:` in a client profile. Each one that is not a capability is
    /// reported where it stands and left out.
    func capabilities(_ node: Node, _ what: String) -> [Capability] {
        let items: [Node] = if case .scalar = node { [node] } else { sequence(node, what) ?? [] }
        return items.compactMap { enumeration($0, "capability", as: Capability.self) }
    }

    func enumeration<Value: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, as _: Value.Type) -> Value?
    where Value.RawValue == String {
        word(node, what, among: Value.allCases.map(\.rawValue)).flatMap(Value.init(rawValue:))
    }

    /// One of the allowed words; for another, an error that suggests the nearest and lists them all.
    func word(_ node: Node, _ what: String, among allowed: [String]) -> String? {
        guard let text = scalarText(node, what, example: allowed[0]) else { return nil }
        guard allowed.contains(text) else {
            error(
                "'\(text)' is not a valid \(what)\(Suggestions.didYouMean(text, among: allowed)) (allowed: \(Self.list(allowed)))",
                at: node
            )
            return nil
        }
        return text
    }

    /// A grant by its scenario name: `refresh_token`, or `token_exchange` for the RFC 8693 URN.
    func grant(_ node: Node, _ what: String, among grants: [GrantType] = GrantType.allCases) -> GrantType? {
        word(node, what, among: grants.map(\.scenarioName)).flatMap { text in
            grants.first { $0.scenarioName == text }
        }
    }

    /// A grant beside the endpoint it selects with (`when:` of a rule, a request filter): refused
    /// where the endpoint takes none, since a rule would never fire and a count could only see 0.
    func grant(_ node: Node, _ what: String, besideEndpoint endpoint: Endpoint?) -> GrantType? {
        guard let grant = grant(node, what) else { return nil }
        if let endpoint, !endpoint.takesGrants {
            error(
                "\(what): a \(endpoint.rawValue) request carries no grant, so nothing would match; "
                    + "a grant selects token requests (endpoint \(Endpoint.allCases.filter(\.takesGrants).map(\.rawValue).joined(separator: " or ")))",
                at: node
            )
            return nil
        }
        return grant
    }

    func timeExpression(_ node: Node, _ what: String) -> TimeExpression? {
        guard let text = scalarText(node, what, example: "expiry(access_token#1) - 5s") else { return nil }
        switch TimeExpression.parse(text) {
        case .success(let expression): return expression
        case .failure(let problem):
            diagnostics.error("\(what): \(problem.message)", at: location(of: node, offsetBy: problem.offset))
            return nil
        }
    }

    func tokenReference(_ node: Node, _ what: String) -> TokenReference? {
        guard let text = scalarText(node, what, example: "access_token#1") else { return nil }
        guard let reference = TokenReference.parse(text) else {
            error(
                "\(what): '\(text)' is not a token; write access_token#N or refresh_token#N (N from 1), app_access_token#N or app_refresh_token#N for the app server's, as2_access_token#N or as2_refresh_token#N for the second authorization server's",
                at: node
            )
            return nil
        }
        return reference
    }

    /// `presents:`: a token reference, or `id_token#N`.
    func presentedCredential(_ node: Node) -> PresentedCredential? {
        guard let text = scalarText(node, "presents", example: "access_token#1") else { return nil }
        guard let credential = PresentedCredential.parse(text) else {
            error(
                "presents: '\(text)' is not a token; write access_token#N, refresh_token#N, app_access_token#N, app_refresh_token#N, as2_access_token#N, as2_refresh_token#N or id_token#N (N from 1)",
                at: node
            )
            return nil
        }
        return credential
    }

    /// Any YAML value as JSON, for response bodies: quoted "3600" stays a string, 3600 a number.
    func json(_ node: Node, _ what: String) -> JSONValue? {
        switch node {
        case .scalar(let scalar):
            let value: JSONValue? =
                switch node.tagName {
                case .null: .null
                case .bool: node.bool.map(JSONValue.bool)
                case .int: Int(scalar.string).map(JSONValue.integer) ?? node.float.map(JSONValue.number)
                case .float: node.float.map(JSONValue.number)
                default: printable(scalar.string, what, at: node).map(JSONValue.string)
                }
            // A value that reads as no JSON value is a problem to report, never a member dropped
            // without a word (the scenario would then test something else than it says).
            if value == nil, [.bool, .int, .float].contains(node.tagName) {
                error("\(what) is not a value JSON can hold: '\(scalar.string)'", at: node)
            }
            return value
        case .sequence(let sequence):
            return .array(sequence.compactMap { json($0, what) })
        case .mapping(let mapping):
            var members: [String: JSONValue] = [:]
            for (key, value) in mapping {
                guard let name = string(key, "a member name in \(what)") else { continue }
                members[name] = json(value, what)
            }
            return .object(members)
        case .alias:
            error("\(what) uses a YAML alias; write the value out", at: node)
            return nil
        }
    }

    // MARK: Helpers

    /// A scalar's text, with a hint when the value is a list or mapping instead.
    private func scalarText(_ node: Node, _ what: String, example: String) -> String? {
        guard case .scalar(let scalar) = node, node.tagName != .null else {
            error("\(what) must be a value like '\(example)', not \(Self.describe(node))", at: node)
            return nil
        }
        return printable(scalar.string, what, at: node)
    }

    /// The text, or `nil` with an error when it holds a control character (see `ControlCharacters`).
    /// Only an escape in a double-quoted value can put one there: the file itself is refused
    /// for one before it is parsed.
    func printable(_ text: String, _ what: String, at node: Node) -> String? {
        guard let (scalar, offset) = ControlCharacters.first(in: text) else { return text }
        error(
            "\(what) holds the control character \(ControlCharacters.name(of: scalar)) (character \(offset + 1)); "
                + "text may hold tabs and line breaks, no other control characters",
            at: node
        )
        return nil
    }

    /// The position `offset` characters into a scalar, past its opening quote when it has one.
    private func location(of node: Node, offsetBy offset: Int) -> SourceLocation? {
        guard var location = location(of: node) else { return nil }
        let quoted = node.scalar.map { $0.style == .singleQuoted || $0.style == .doubleQuoted } ?? false
        location.column += offset + (quoted ? 1 : 0)
        return location
    }

    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            if node.tagName == .null { return "nothing (null)" }
            let text = scalar.string.count > 40 ? String(scalar.string.prefix(40)) + "…" : scalar.string
            return "'\(ControlCharacters.visible(text))'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    static func list(_ words: [String]) -> String {
        words.joined(separator: ", ")
    }
}

/// A mapping whose keys have been checked against the allowed ones.
struct CheckedMapping {
    let node: Node
    let entries: [String: (key: Node, value: Node)]
    let what: String
    let reader: YAMLReader

    subscript(key: String) -> Node? { entries[key]?.value }

    func has(_ key: String) -> Bool { entries[key] != nil }

    /// The value, or a "missing key" error at the mapping.
    func required(_ key: String, hint: String = "") -> Node? {
        guard let value = entries[key]?.value else {
            reader.error("\(what) is missing '\(key)'\(hint)", at: node)
            return nil
        }
        return value
    }

    /// Exactly one of `keys` must be present: the form of a step, rule or expectation.
    func exactlyOne(of keys: [String]) -> String? {
        let present = keys.filter(has)
        switch present.count {
        case 1: return present[0]
        case 0:
            reader.error("\(what) needs one of \(YAMLReader.list(keys))", at: node)
        default:
            reader.error("\(what) has \(YAMLReader.list(present)); give only one of them", at: entries[present[1]]!.key)
        }
        return nil
    }
}

extension Node {
    /// The tag the resolver gave the node: a quoted "3600" is a string, a plain 3600 an int.
    var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }
}
