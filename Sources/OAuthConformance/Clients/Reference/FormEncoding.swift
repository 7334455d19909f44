import Foundation

/// `application/x-www-form-urlencoded`, as RFC 6749 Appendix B requires for token requests and
/// §2.3.1 for the parts of HTTP Basic client credentials.
enum FormEncoding {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    static func basicAuthorization(id: String, secret: String) -> String {
        "Basic " + Data("\(encode(id)):\(encode(secret))".utf8).base64EncodedString()
    }
}
