import MockProvider

/// `origin:` in a request filter, as scenarios write it.
enum RequestOrigin: String, CaseIterable {
    case primary
    /// The provider's second origin, where its redirects point.
    case other

    var listener: Listener { self == .primary ? .primary : .otherOrigin }
}
