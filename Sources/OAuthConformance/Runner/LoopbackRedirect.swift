import Foundation

/// Where the harness's browser may follow a provider's redirect in a native app's sign-in
/// (RFC 8252 §7.3): to a loopback listener of the client's, over plain HTTP. Anything else is
/// another host the user's machine would be sent to, which the browser does not visit.
struct LoopbackRedirect: Sendable, Equatable {
    /// The redirect, as the provider gave it.
    let url: String

    /// The hosts of a loopback listener: the IPv4 and IPv6 loopback addresses (§8.3), and the name
    /// some libraries still use.
    static let hosts: Set<String> = ["127.0.0.1", "::1", "localhost"]

    /// The redirect the browser follows, or why it does not.
    static func checking(_ location: String) -> Result<LoopbackRedirect, RefusedRedirect> {
        guard let components = URLComponents(string: location), let host = components.host else {
            return .failure(RefusedRedirect(location: location, reason: "it is not an absolute URL"))
        }
        guard components.scheme?.lowercased() == "http" else {
            return .failure(
                RefusedRedirect(location: location, reason: "a loopback redirect URI uses http (RFC 8252 §7.3)")
            )
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard hosts.contains(bare.lowercased()) else {
            return .failure(
                RefusedRedirect(
                    location: location,
                    reason: "\(host) is not a loopback host (127.0.0.1, ::1 or localhost)"
                )
            )
        }
        return .success(LoopbackRedirect(url: location))
    }

    /// `open_url` must be a web URL for the browser to open at all.
    static func isWebURL(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), components.host?.isEmpty == false else { return false }
        return ["http", "https"].contains(components.scheme?.lowercased() ?? "")
    }
}

/// A redirect the browser does not follow, and why.
struct RefusedRedirect: Error, Equatable {
    let location: String
    let reason: String

    var message: String {
        "the provider redirected the browser to \(location), which it does not follow: \(reason)"
    }
}
