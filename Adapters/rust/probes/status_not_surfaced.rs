// Probe: 5xx and 429 answers of the token endpoint. RequestTokenError carries no HTTP status
// (lib.rs enum RequestTokenError) and check_response_status turns a non-200 answer into
// ServerResponse when its body parses as an error, Parse when it does not, Other("Server
// returned empty error response") when it is empty: an HTML 503 page, an empty 429 and an empty
// 503 with Retry-After reach the application without their status or Retry-After. Driven with
// the library's own documented HTTP function, oauth2::reqwest::http_client.
#[path = "support/mod.rs"]
mod support;

use oauth2::RequestTokenError;

fn main() {
    support::watchdog();
    let html = vec![("Content-Type", "text/html".to_string())];
    let server = support::Server::start(vec![
        support::answer(503, html.clone(), "<html><body>Service Unavailable</body></html>"),
        support::answer(500, html, "<html><body>Internal Server Error</body></html>"),
        support::answer(429, vec![("Retry-After", "30".to_string())], ""),
        support::answer(503, vec![("Retry-After", "30".to_string())], ""),
    ]);
    let client = support::client(&server);
    let mut as_expected = true;
    for (answer, expect_parse) in [("503 HTML", true), ("500 HTML", true), ("429 empty, Retry-After: 30", false), ("503 empty, Retry-After: 30", false)] {
        let result = support::refresh(&client);
        let words = match &result {
            Ok(_) => "Ok(token)".to_string(),
            Err(RequestTokenError::Parse(error, _)) => format!("RequestTokenError::Parse({})", error),
            Err(RequestTokenError::Other(words)) => format!("RequestTokenError::Other({:?})", words),
            Err(other) => format!("{:?}", other),
        };
        println!("  {} -> {}", answer, words);
        let fits = match &result {
            Err(RequestTokenError::Parse(..)) => expect_parse,
            Err(RequestTokenError::Other(words)) => !expect_parse && words == "Server returned empty error response",
            _ => false,
        };
        // Neither variant has a field for the status or the headers: what is printed is all
        // the application gets.
        as_expected &= fits && !words.contains("503") && !words.contains("429") && !words.contains("500");
    }
    support::conclude(
        as_expected && server.requests().len() == 4,
        "5xx and 429 answers of the token endpoint reach the application without their HTTP status or Retry-After: an HTML error page as RequestTokenError::Parse, an empty body as RequestTokenError::Other(\"Server returned empty error response\")",
        "an answer's status or kind differed from the claim",
    )
}
