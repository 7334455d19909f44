import Synchronization

/// Which listener a request arrived on.
public enum Listener: String, Sendable, Hashable {
    case primary
    /// A second origin (another port) serving the same provider, for cross-origin redirects.
    case otherOrigin = "other-origin"
}

/// The base URLs the provider is reachable at, known once the server has bound its ports.
public struct ProviderOrigins: Sendable, Equatable {
    public var primary: String
    public var other: String
}

/// Set by the server after binding; read by rules that redirect.
public final class OriginBook: Sendable {
    private let value = Mutex<ProviderOrigins?>(nil)

    public var current: ProviderOrigins? { value.withLock { $0 } }

    func set(_ origins: ProviderOrigins) {
        value.withLock { $0 = origins }
    }
}
