// Probe: a token endpoint that answers 200 with an RFC 6749 §5.2 error body. oauth2-rs reads an
// error body only when the status is not 200 (lib.rs check_response_status), so the answer is
// parsed as a token response and fails for lack of access_token: the code never reaches the
// application. Driven with the library's own documented HTTP function, oauth2::reqwest::http_client.
#[path = "support/mod.rs"]
mod support;

use oauth2::RequestTokenError;

fn main() {
    support::watchdog();
    let error_body = r#"{"error":"invalid_grant","error_description":"the grant was revoked"}"#;
    let server = support::Server::start(vec![support::json(200, error_body), support::json(200, error_body)]);
    let client = support::client(&server);
    let mut surfaced_code = false;
    let mut both_parse = true;
    let password = support::password_grant(&client);
    let refresh = support::refresh(&client);
    for (grant, result) in [("password", password), ("refresh_token", refresh)] {
        match result {
            Ok(token) => {
                println!("  {}: Ok({:?})", grant, token);
                both_parse = false;
            }
            Err(RequestTokenError::Parse(error, _)) => println!("  {}: RequestTokenError::Parse({})", grant, error),
            Err(RequestTokenError::ServerResponse(response)) => {
                println!("  {}: RequestTokenError::ServerResponse({})", grant, response);
                surfaced_code = true;
                both_parse = false;
            }
            Err(other) => {
                println!("  {}: {:?}", grant, other);
                both_parse = false;
            }
        }
    }
    support::conclude(
        both_parse && !surfaced_code && server.requests().len() == 2,
        "a 200 answer whose body is an RFC 6749 §5.2 error fails the password grant and the refresh as RequestTokenError::Parse (missing field access_token); the invalid_grant code is not surfaced",
        "the library did not fail both requests with a Parse error",
    )
}
