/// RFC 8414 authorization server metadata, so discovery-driven clients find every endpoint.
enum MetadataEndpoint {
    static func serve(issuer: String) -> ProviderResponse {
        func url(_ endpoint: Endpoint) -> JSONValue { .string(issuer + endpoint.path) }
        return .json(
            200,
            .object([
                "issuer": .string(issuer),
                "authorization_endpoint": url(.authorize),
                "token_endpoint": url(.token),
                "revocation_endpoint": url(.revoke),
                "introspection_endpoint": url(.introspect),
                "response_types_supported": .array([.string("code")]),
                "grant_types_supported": .array(GrantType.allCases.map { .string($0.rawValue) }),
                "code_challenge_methods_supported": .array(CodeChallengeMethod.allCases.map { .string($0.rawValue) }),
                "token_endpoint_auth_methods_supported": .array([
                    .string("client_secret_basic"), .string("client_secret_post"),
                ]),
                "authorization_response_iss_parameter_supported": .bool(true),
            ])
        )
    }
}
