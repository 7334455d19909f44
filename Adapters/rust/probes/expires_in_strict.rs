// Probe: odd expires_in values. StandardTokenResponse reads expires_in as Option<u64> (lib.rs),
// so -60, "3600", 7199.5 and "soon" fail the whole token response with RequestTokenError::Parse,
// and 0 comes to the application as a lifetime of zero seconds. A sign-in's token response (the
// password grant), or with the argument `refresh` a refresh response: the same parse.
#[path = "support/mod.rs"]
mod support;

use oauth2::{RequestTokenError, TokenResponse};
use std::time::Duration;

fn main() {
    support::watchdog();
    let (answer, token_request) = support::token_request_from_args();
    let values = ["-60", "\"3600\"", "7199.5", "\"soon\"", "0"];
    let server = support::Server::start(support::ok_for_each(&values, |value| {
        format!(r#"{{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt-1","expires_in":{}}}"#, value)
    }));
    let client = support::client(&server);
    let mut as_claimed = true;
    for value in values {
        let result = token_request(&client);
        match &result {
            Ok(token) => println!("  expires_in {} -> Ok, expires_in() = {:?}", value, token.expires_in()),
            Err(RequestTokenError::Parse(error, _)) => println!("  expires_in {} -> RequestTokenError::Parse({})", value, error),
            Err(other) => println!("  expires_in {} -> {:?}", value, other),
        }
        as_claimed &= match (value, &result) {
            ("0", Ok(token)) => token.expires_in() == Some(Duration::from_secs(0)),
            ("0", _) => false,
            (_, Err(RequestTokenError::Parse(..))) => true,
            _ => false,
        };
    }
    support::conclude(
        as_claimed,
        &format!("expires_in -60, \"3600\", 7199.5 and \"soon\" each fail the whole {} (RequestTokenError::Parse: expires_in must be an unsigned integer), and expires_in 0 is handed over as expires_in() = Some(0s)", answer),
        "a value was read otherwise",
    )
}
