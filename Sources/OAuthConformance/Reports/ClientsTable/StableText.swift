/// Text from a run made the same for every run of the same client, for a page that is committed
/// and compared with a fresh render: the parts that change from run to run (the provider's port,
/// the client's state and PKCE values, a temporary file) are replaced by a placeholder.
enum StableText {
    static func masked(_ text: String) -> String {
        var text = text
        // The provider listens on a fresh port each run: `127.0.0.1:41491`, urllib3's `port=41491`.
        text.replace(#/(?<host>127\.0\.0\.1|localhost|\[::1\]):[0-9]+/#) { "\($0.output.host):PORT" }
        text.replace(#/port=[0-9]+/#) { _ in "port=PORT" }
        // Values a client makes up per authorization: `state=…`, `code_verifier = …`.
        text.replace(#/(?<name>state|code_challenge|code_verifier|nonce)(?<equals> ?= ?)[A-Za-z0-9._~%+\/-]+/#) {
            "\($0.output.name)\($0.output.equals)…"
        }
        // Keys and certificates made for the run: `sha256/vR0ImEh…=`.
        text.replace(#/sha256\/[A-Za-z0-9+\/]+=*/#) { _ in "sha256/…" }
        // Temporary files and folders (a CA file, a token store): `/tmp/conformance-…/ca.pem`.
        text.replace(#/(/private)?/(tmp|var/folders)/[^\s'"),\]]+/#) { _ in "<temporary file>" }
        return text
    }
}
