/// A variant of the reference client with one realistic bug. It declares the reference client's
/// profile, as a buggy library claims to conform, so only the verdicts can expose it.
public struct DefectiveClient: Sendable {
    public var name: String
    public var bug: String
    public var behaviour: ClientBehaviour

    public var factory: ReferenceClientFactory {
        ReferenceClientFactory(behaviour: behaviour, name: "reference+\(name)")
    }

    /// Every deliberate bug, one knob of `ClientBehaviour` each, declared beside its knob.
    public static let catalogue: [DefectiveClient] =
        ClientBehaviour.defects + OpenIDConnectBehaviour.defects + TokenExchangeBehaviour.defects
        + DPoPBehaviour.defects + MCPBehaviour.defects

    static func defect(
        _ name: String,
        _ bug: String,
        _ change: (inout ClientBehaviour) -> Void
    ) -> DefectiveClient {
        DefectiveClient(name: name, bug: bug, behaviour: modified(change))
    }

    private static func modified(_ change: (inout ClientBehaviour) -> Void) -> ClientBehaviour {
        var behaviour = ClientBehaviour.conforming
        change(&behaviour)
        return behaviour
    }
}
