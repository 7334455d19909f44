import Foundation

@testable import OAuthConformance

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Sends the request as a hand-written test client does and reports what came back: the
    /// answer whatever its status, or a transport failure as `transient`.
    func clientOutcome() async -> ClientOutcome {
        do {
            let (data, response) = try await URLSession.shared.data(for: self)
            return .success(
                status: (response as? HTTPURLResponse)?.statusCode ?? 0,
                body: String(decoding: data, as: UTF8.self)
            )
        } catch {
            return .failure(ClientFailure(.transient, message: "\(error)"))
        }
    }
}
