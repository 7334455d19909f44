import Yams

/// One item of `expect:` or `precondition:`, as the type of the check it states decodes it: the
/// value of the check's key, the item around it (for the keys that go beside the check's own),
/// and the reader that reports each problem where it stands.
struct CheckSource {
    /// The check's key, e.g. `count`: problems with its value are reported under this name.
    let key: String
    /// The key's value: `{ endpoint: token, exactly: 1 }` in `count: { endpoint: token, exactly: 1 }`.
    let body: Node
    /// The whole item, its keys already checked.
    let item: CheckedMapping
    let reader: YAMLReader
    /// How many steps the scenario has, which `from_step` and `during_step` may name; unchecked when nil.
    let stepCount: Int?
    /// The numbers of the steps that sign in the client's own way (`sign_in: any`).
    var signInSteps: [Int] = []

    /// Whether the number of requests `filter` takes holds whichever way the client signs in;
    /// otherwise the problem is reported at the check. Checks that count or number requests ask.
    func holdsForEverySignIn(_ filter: RequestFilter) -> Bool {
        guard let problem = filter.signInDependence(signInSteps: signInSteps) else { return true }
        reader.error("'\(key)' \(problem)", at: body)
        return false
    }

    /// The value as a mapping with these keys: `count: { endpoint: token, exactly: 1 }`.
    func mapping(allowedKeys: [String]) -> CheckedMapping? {
        reader.mapping(body, key, allowedKeys: allowedKeys)
    }

    /// The value as one of these words (`every_step: succeeds`), or nil after `problem`, reported at the value.
    func word(among words: [String], otherwise problem: String) -> String? {
        guard let word = reader.string(body, key), words.contains(word) else {
            reader.error(problem, at: body)
            return nil
        }
        return word
    }
}
