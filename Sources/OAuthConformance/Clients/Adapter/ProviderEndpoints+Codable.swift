import Foundation
import MockProvider

/// The endpoints as `reset`'s `environment` carries them, beside the environment's other fields
/// (docs/adapter-protocol.md): one flat object, an absent endpoint as `null`.
extension ProviderEndpoints: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case issuer
        case token = "token_endpoint"
        case authorization = "authorization_endpoint"
        case resourceBase = "resource_base_url"
        case openIDConfiguration = "openid_configuration_url"
        case appServerToken = "app_server_token_endpoint"
        case pushedAuthorization = "pushed_authorization_request_endpoint"
        case deviceAuthorization = "device_authorization_endpoint"
        case mcpServer = "mcp_server_url"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try fields.decode(String.self, forKey: .issuer)
        token = try fields.decode(String.self, forKey: .token)
        authorization = try fields.decode(String.self, forKey: .authorization)
        resourceBase = try fields.decode(String.self, forKey: .resourceBase)
        openIDConfiguration = try fields.decode(String.self, forKey: .openIDConfiguration)
        appServerToken = try fields.decode(String.self, forKey: .appServerToken)
        pushedAuthorization = try fields.decodeIfPresent(String.self, forKey: .pushedAuthorization)
        deviceAuthorization = try fields.decode(String.self, forKey: .deviceAuthorization)
        // Absent from an older harness's environment: the server beside the resource, where it is.
        mcpServer = try fields.decodeIfPresent(String.self, forKey: .mcpServer) ?? resourceBase + Endpoint.mcp.path
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(issuer, forKey: .issuer)
        try fields.encode(token, forKey: .token)
        try fields.encode(authorization, forKey: .authorization)
        try fields.encode(resourceBase, forKey: .resourceBase)
        try fields.encode(openIDConfiguration, forKey: .openIDConfiguration)
        try fields.encode(appServerToken, forKey: .appServerToken)
        try fields.encode(pushedAuthorization, forKey: .pushedAuthorization)
        try fields.encode(deviceAuthorization, forKey: .deviceAuthorization)
        try fields.encode(mcpServer, forKey: .mcpServer)
    }
}
