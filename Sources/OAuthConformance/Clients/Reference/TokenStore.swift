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

/// The ID token the user is signed in with, persisted beside the tokens when it is accepted, so
/// that a relaunched application knows who its tokens belong to (a refresh response may carry
/// no ID token, so the token set alone cannot say).
struct SignInStore: Sendable {
    let file: URL

    func load() -> String? {
        (try? String(contentsOf: file, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
    }

    func save(_ idToken: String?) {
        guard let idToken else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try? Data(idToken.utf8).write(to: file, options: .atomic)
    }
}
