// Probe: the HTTP functions oauth2-rs bundles, on an RFC 6749 §5.2 error (400 invalid_grant).
// The default one, oauth2::reqwest::http_client (feature "reqwest", on by default), hands back
// every status, so the library parses the error body: ServerResponse(invalid_grant). The ureq one,
// oauth2::ureq::http_client (feature "ureq"), calls ureq, which returns Err(Status) for every
// 4xx and 5xx; the function maps it to oauth2::ureq::Error::Ureq (src/ureq.rs), so the library
// sees a transport failure, RequestTokenError::Request, and the code is lost.
#[path = "support/mod.rs"]
mod support;

use oauth2::{RefreshToken, RequestTokenError};

fn main() {
    support::watchdog();
    let refused = r#"{"error":"invalid_grant","error_description":"the refresh token is invalid"}"#;
    let server = support::Server::start(vec![support::json(400, refused), support::json(400, refused)]);
    let client = support::client(&server);
    let by_reqwest = support::refresh(&client);
    let reqwest_code = match &by_reqwest {
        Err(RequestTokenError::ServerResponse(response)) => Some(response.error().as_ref().to_string()),
        _ => None,
    };
    println!("  oauth2::reqwest::http_client -> {:?}", by_reqwest.err());
    let by_ureq = client.exchange_refresh_token(&RefreshToken::new("rt-1".into())).request(oauth2::ureq::http_client);
    let ureq_lost = matches!(&by_ureq, Err(RequestTokenError::Request(oauth2::ureq::Error::Ureq(_))));
    println!("  oauth2::ureq::http_client    -> {:?}", by_ureq.err());
    support::conclude(
        reqwest_code.as_deref() == Some("invalid_grant") && ureq_lost,
        "on a 400 invalid_grant, the default oauth2::reqwest::http_client surfaces RequestTokenError::ServerResponse(invalid_grant), while the bundled oauth2::ureq::http_client turns it into RequestTokenError::Request(Ureq(Status(400))): the code is lost",
        "the bundled functions did not behave as claimed",
    )
}
