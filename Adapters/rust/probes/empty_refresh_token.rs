// Probe: a refresh response with "refresh_token": "". StandardTokenResponse reads refresh_token
// as Option<RefreshToken> (lib.rs), so the empty string is handed over as a refresh token,
// Some(""), where null or an absent member give None.
#[path = "support/mod.rs"]
mod support;

use oauth2::TokenResponse;

fn main() {
    support::watchdog();
    let server = support::Server::start(vec![
        support::json(200, r#"{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":""}"#),
        support::json(200, r#"{"access_token":"at-3","token_type":"Bearer","expires_in":3600,"refresh_token":null}"#),
    ]);
    let client = support::client(&server);
    let empty = support::refresh(&client);
    let null = support::refresh(&client);
    let read = |result: &Result<oauth2::basic::BasicTokenResponse, _>| -> Option<Option<String>> {
        result.as_ref().ok().map(|token| token.refresh_token().map(|rt| rt.secret().clone()))
    };
    let (empty, null) = (read(&empty), read(&null));
    println!("  \"refresh_token\": \"\"   -> refresh_token() = {:?}", empty);
    println!("  \"refresh_token\": null -> refresh_token() = {:?}", null);
    support::conclude(
        empty == Some(Some(String::new())) && null == Some(None),
        "a refresh response with \"refresh_token\": \"\" hands the application Some(RefreshToken(\"\")) as the new refresh token (null gives None)",
        "the empty refresh token was not handed over as Some(\"\")",
    )
}
