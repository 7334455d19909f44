import Foundation
import MockProvider

/// The provider's own cost per request, in process: `MockProvider.handle` answering a
/// client-credentials token request and a resource request, each built from bytes as the server
/// builds it, with no socket, no kernel and no load generator on the CPU. Beside
/// `Benchmarks/provider-vs-nginx.sh`, it tells a change to the provider's code from the noise of
/// the network stack: caches are warm here, so the figure is a floor, not a server's cost.
///
///     swift run -c release handle-loop [requests-per-round] [rounds]
@main
enum HandleLoop {
    static let basic = "Basic " + Data("conformance-client:conformance-secret".utf8).base64EncodedString()

    static func main() {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let requests = arguments.first ?? 200_000
        let rounds = arguments.dropFirst().first ?? 5
        for kind in ["token", "resource"] {
            let figures = (0..<rounds).map { _ in nanosecondsPerRequest(kind, requests: requests) }
            let median = figures.sorted()[figures.count / 2]
            print(
                "\(kind): median \(median) ns per request over \(rounds) rounds of \(requests) (rounds: \(figures.map(String.init).joined(separator: ", ")))"
            )
        }
    }

    /// A fresh provider per round, as `conformance serve` keeps it: a journal of 10,000 entries.
    static func nanosecondsPerRequest(_ kind: String, requests: Int) -> Int {
        let provider = MockProvider(journal: Journal(capacity: 10_000))
        let token = headerBytes([
            ("Host", "127.0.0.1:8080"), ("Authorization", basic), ("Content-Type", "application/x-www-form-urlencoded"),
            ("Content-Length", "29"),
        ])
        let resource = headerBytes([("Host", "127.0.0.1:8080"), ("Authorization", "Bearer at-1")])
        let body = Array("grant_type=client_credentials".utf8)
        _ = provider.handle(request("POST", "/token", token, body))
        var failures = 0
        let started = ContinuousClock.now
        for _ in 0..<requests {
            let answer =
                kind == "token"
                ? provider.handle(request("POST", "/token", token, body))
                : provider.handle(request("GET", "/resource", resource, []))
            if answer.response.status != 200 { failures += 1 }
        }
        let elapsed = (ContinuousClock.now - started).components
        precondition(failures == 0, "\(failures) \(kind) requests were not answered 200")
        return Int((Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9) / Double(requests))
    }

    static func headerBytes(_ fields: [(String, String)]) -> [([UInt8], [UInt8])] {
        fields.map { (Array($0.0.utf8), Array($0.1.utf8)) }
    }

    /// Strings made from bytes per request, as the exchange handler makes them from NIO's.
    static func request(
        _ method: String,
        _ target: String,
        _ headers: [([UInt8], [UInt8])],
        _ body: [UInt8]
    ) -> ProviderRequest {
        ProviderRequest(
            method: method,
            target: target,
            headers: headers.map {
                HeaderField(String(decoding: $0.0, as: UTF8.self), String(decoding: $0.1, as: UTF8.self))
            },
            body: String(decoding: body, as: UTF8.self)
        )
    }
}
