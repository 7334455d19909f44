import Foundation

/// The reference client's persisted tokens: one JSON file, rewritten whole on every change, as an
/// application's keychain or preferences entry would be.
struct TokenStore: Sendable {
    let file: URL

    func load() -> TokenSet? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(TokenSet.self, from: data)
    }

    func save(_ tokens: TokenSet?) {
        guard let tokens else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        guard let data = try? JSONEncoder().encode(tokens) else { return }
        try? data.write(to: file, options: .atomic)
    }
}
