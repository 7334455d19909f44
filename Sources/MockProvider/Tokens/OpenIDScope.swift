/// OpenID Connect Core §3.1.2.1: a request whose scope holds `openid` asks to sign the user in, and
/// its grant carries an ID token (§3.1.3.3). A scope is space-delimited and case-sensitive (RFC 6749 §3.3).
enum OpenIDScope {
    static func includesOpenID(_ scope: String?) -> Bool {
        scope?.split(separator: " ").contains("openid") ?? false
    }
}
