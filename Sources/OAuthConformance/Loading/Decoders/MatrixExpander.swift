import Yams

/// `matrix:` makes one scenario per combination of parameter values. Every `{name}` in a string
/// value is replaced on the YAML node tree, before decoding, so each diagnostic still points at
/// the line and column the author wrote.
struct MatrixExpander {
    struct Combination {
        let node: Node
        /// e.g. `["code": "invalid_grant"]`; empty without a matrix.
        let parameters: [String: String]
    }

    /// Beyond this a matrix is a mistake, not a test plan.
    static let mostCombinations = 256
    /// YAML values one scenario may hold, counting what aliases expand to: a guard against
    /// "billion laughs" documents, whose expansion would take forever to walk.
    static let mostValues = 50_000

    let reader: YAMLReader

    /// The scenario once per combination, or once as written when it has no matrix. When the
    /// matrix or a placeholder is wrong (reported), `isValid` is false and the one combination
    /// given is only for finding the scenario's other problems. `nil` for a document too large to walk.
    func expand(_ node: Node) -> (combinations: [Combination], isValid: Bool)? {
        guard case .mapping(let top) = node else { return ([Combination(node: node, parameters: [:])], true) }
        guard Self.countsAtMost(Self.mostValues, node) else {
            reader.error(
                "the scenario holds more than \(Self.mostValues) YAML values (aliases expanded); write it out plainly",
                at: node
            )
            return nil
        }
        let matrixNode = top.first { $0.key.string == "matrix" }?.value
        // Without a matrix there are no parameters; with a broken one (reported) there are none either.
        let parameters: [Parameter]? = if let matrixNode { readMatrix(matrixNode) } else { [] }
        // With a broken matrix every placeholder would look unknown; its own problems are reported instead.
        var isValid = parameters != nil
        if let parameters {
            let names = parameters.map(\.name)
            isValid = checkPlaceholders(node, known: names) && isValid
            if let idNode = top.first(where: { $0.key.string == "id" })?.value, let id = idNode.string {
                for name in names where !id.contains("{\(name)}") {
                    reader.error(
                        "id must contain {\(name)}, so that each combination of the matrix has its own id",
                        at: idNode
                    )
                    isValid = false
                }
            }
        }
        guard isValid else {
            // Each placeholder stands for its own name, so that it adds no problems of its own.
            var names = Set<String>()
            forEachValueScalar(node) { _, text in names.formUnion(Self.placeholders(in: text)) }
            let neutral = Dictionary(uniqueKeysWithValues: names.map { ($0, Node.scalar(Node.Scalar($0, Tag(.str)))) })
            return ([Combination(node: substitute(node, neutral), parameters: [:])], false)
        }
        let combinations = combinations(of: parameters ?? []).map { binding in
            // Yams refuses a key given twice, so names are unique; should one slip through, the first list wins.
            let values = Dictionary(binding.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            return Combination(node: substitute(node, values), parameters: values.compactMapValues(\.string))
        }
        return (combinations, true)
    }

    // MARK: The matrix

    private typealias Parameter = (name: String, values: [Node])

    /// `matrix: { code: [invalid_request, invalid_client] }`.
    private func readMatrix(_ node: Node) -> [Parameter]? {
        guard case .mapping(let mapping) = node, mapping.count > 0 else {
            reader.error(
                "matrix must be a mapping of parameter names to lists of values, e.g. { code: [invalid_grant, invalid_scope] }",
                at: node
            )
            return nil
        }
        var parameters: [Parameter] = []
        var valid = true
        for (key, value) in mapping {
            guard let name = key.string, Self.isParameterName(name) else {
                reader.error(
                    "a matrix parameter name is lowercase letters, digits and _, starting with a letter or _",
                    at: key
                )
                valid = false
                continue
            }
            guard case .sequence(let sequence) = value, !sequence.isEmpty else {
                reader.error("matrix.\(name) must be a non-empty list of values", at: value)
                valid = false
                continue
            }
            var seen = Set<String>()
            for item in sequence {
                guard let text = reader.string(item, "a value of matrix.\(name)") else {
                    valid = false
                    continue
                }
                if !seen.insert(text).inserted {
                    reader.error("matrix.\(name) lists '\(text)' twice", at: item)
                    valid = false
                }
            }
            parameters.append((name, Array(sequence)))
        }
        let count = parameters.reduce(1) { total, parameter in
            min(total * parameter.values.count, Self.mostCombinations + 1)
        }
        if count > Self.mostCombinations {
            reader.error("the matrix makes more than \(Self.mostCombinations) combinations", at: node)
            valid = false
        }
        return valid ? parameters : nil
    }

    private func combinations(of parameters: [Parameter]) -> [[(name: String, value: Node)]] {
        parameters.reduce([[]]) { partial, parameter in
            partial.flatMap { binding in parameter.values.map { binding + [(parameter.name, $0)] } }
        }
    }

    // MARK: Placeholders

    /// Reports every `{name}` that names no parameter; true when there is none.
    private func checkPlaceholders(_ node: Node, known: [String]) -> Bool {
        var valid = true
        forEachValueScalar(node) { scalarNode, text in
            for name in Self.placeholders(in: text) where !known.contains(name) {
                let hint =
                    known.isEmpty
                    ? "this scenario has no matrix"
                    : "parameters: \(YAMLReader.list(known))\(Suggestions.didYouMean(name, among: known))"
                reader.error("'{\(name)}' is not a matrix parameter (\(hint))", at: scalarNode)
                valid = false
            }
        }
        return valid
    }

    /// Visits the scalar values (not keys) outside `matrix:` itself.
    private func forEachValueScalar(_ node: Node, _ visit: (Node, String) -> Void) {
        switch node {
        case .scalar(let scalar):
            visit(node, scalar.string)
        case .sequence(let sequence):
            for item in sequence { forEachValueScalar(item, visit) }
        case .mapping(let mapping):
            for (key, value) in mapping where key.string != "matrix" {
                forEachValueScalar(value, visit)
            }
        case .alias:
            break
        }
    }

    /// A copy of the tree with placeholders replaced. A value that is a placeholder and nothing
    /// else takes the parameter value's own type (`status: "{status}"` with `[400, 401]` is a
    /// number); one with text around it stays text. Marks stay, so diagnostics keep their place.
    private func substitute(_ node: Node, _ values: [String: Node]) -> Node {
        switch node {
        case .scalar(let scalar):
            let names = Self.placeholders(in: scalar.string)
            guard !names.isEmpty else { return node }
            if names.count == 1, scalar.string == "{\(names[0])}", case .scalar(let value)? = values[names[0]] {
                // The value's style too: Yams reads a number only from a plain scalar, and the
                // placeholder is usually quoted ("{expires_in}"), so with the placeholder's style
                // 7199.5 would be a float that no reader accepts.
                return .scalar(Node.Scalar(value.string, value.tag, value.style, scalar.mark))
            }
            var text = scalar.string
            for (name, value) in values {
                text = text.replacingOccurrences(of: "{\(name)}", with: value.string ?? "")
            }
            return .scalar(Node.Scalar(text, Tag(.str), scalar.style, scalar.mark))
        case .sequence(let sequence):
            return .sequence(
                Node.Sequence(sequence.map { substitute($0, values) }, sequence.tag, sequence.style, sequence.mark)
            )
        case .mapping(let mapping):
            let pairs = mapping.map { key, value in (key, key.string == "matrix" ? value : substitute(value, values)) }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .alias:
            return node
        }
    }

    /// The names of `{name}` placeholders in the text, in order.
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            rest = rest[rest.index(after: open)...]
            let name = rest.prefix { $0 != "}" && $0 != "{" }
            if name.endIndex < rest.endIndex, rest[name.endIndex] == "}", isParameterName(String(name)) {
                names.append(String(name))
            }
        }
        return names
    }

    static func isParameterName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// Whether the tree holds at most `limit` nodes; stops counting as soon as it is over.
    private static func countsAtMost(_ limit: Int, _ root: Node) -> Bool {
        var pending = [root]
        var count = 0
        while let node = pending.popLast() {
            count += 1
            if count > limit { return false }
            switch node {
            case .sequence(let sequence): pending.append(contentsOf: sequence)
            case .mapping(let mapping):
                for (key, value) in mapping {
                    pending.append(key)
                    pending.append(value)
                }
            case .scalar, .alias: break
            }
        }
        return true
    }
}
