// Probe: the authorization response. oauth2-rs builds the authorization URL (state, S256 PKCE)
// and redeems a code (exchange_code), and nothing in between: no function reads the redirect.
// The documentation has the application compare state and take code; so a redirect with
// iss=https://attacker.example (RFC 9207) is redeemed, and a redirect with error=access_denied
// has nothing the library reads.
#[path = "support/mod.rs"]
mod support;

use oauth2::reqwest::http_client;
use oauth2::{AuthorizationCode, CsrfToken, PkceCodeChallenge, RedirectUrl};

fn main() {
    support::watchdog();
    let server = support::Server::start(vec![support::json(
        200,
        r#"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1"}"#,
    )]);
    let client = support::client(&server)
    .set_redirect_uri(RedirectUrl::new("http://127.0.0.1/callback".into()).unwrap());
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, state) = client.authorize_url(CsrfToken::new_random).set_pkce_challenge(challenge).url();
    println!("  authorize_url: {}", url);
    // The provider's redirect, naming another issuer; the documented steps: compare state, take code.
    let redirect = url::Url::parse(&format!(
        "http://127.0.0.1/callback?code=code-1&state={}&iss=https%3A%2F%2Fattacker.example",
        state.secret()
    ))
    .unwrap();
    println!("  redirect: {}", redirect);
    let parameter = |name: &str| redirect.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
    assert_eq!(parameter("state").as_deref(), Some(state.secret().as_str()));
    let result = client
        .exchange_code(AuthorizationCode::new(parameter("code").unwrap()))
        .set_pkce_verifier(verifier)
        .request(http_client);
    println!("  exchange_code: {}", if result.is_ok() { "Ok(token)".to_string() } else { format!("{:?}", result.as_ref().err()) });
    let redeemed = server.requests().iter().any(|r| r.path == "/token" && r.body.contains("code=code-1"));
    support::conclude(
        redeemed && result.is_ok(),
        "oauth2-rs has no reader of the authorization response: exchange_code redeems the code of a redirect whose iss names another issuer (no RFC 9207 check), and an error=access_denied redirect is left to the application, whose documented steps read only state and code",
        "the code was not redeemed",
    )
}
