// Probe: a 5xx answer to a device-code poll. The library's polling loop
// (DeviceAccessTokenRequest::request, lib.rs) slows down (doubles the interval) only when the
// HTTP function itself fails; a 503 page is an HTTP answer, parsed like any token response, and
// any error but authorization_pending and slow_down ends the loop: the flow is lost at the first 5xx.
// The loop's own sleep_fn and time_fn are given a clock that moves by each sleep, so nothing
// really waits.
#[path = "support/mod.rs"]
mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{TimeZone, Utc};
use oauth2::devicecode::StandardDeviceAuthorizationResponse;
use oauth2::reqwest::http_client;
use oauth2::{DeviceAuthorizationUrl, RequestTokenError};

fn main() {
    support::watchdog();
    let server = support::Server::start(vec![
        support::json(200, r#"{"device_code":"dc-1","user_code":"ABCD-EFGH","verification_uri":"https://example.test/device","expires_in":600,"interval":5}"#),
        support::json(400, r#"{"error":"authorization_pending"}"#),
        support::answer(503, vec![("Content-Type", "text/html".to_string())], "<html>Service Unavailable</html>"),
        support::json(400, r#"{"error":"authorization_pending"}"#),
        support::json(200, r#"{"access_token":"at-1","token_type":"Bearer","expires_in":3600}"#),
    ]);
    let client = support::client(&server)
    .set_device_authorization_url(DeviceAuthorizationUrl::new(server.url("/device_authorization")).unwrap());
    let details: StandardDeviceAuthorizationResponse =
        client.exchange_device_code().unwrap().request(http_client).expect("device authorization");
    let clock = Arc::new(Mutex::new(1_767_225_600i64));
    let reading = clock.clone();
    let sleeps = Arc::new(Mutex::new(Vec::new()));
    let slept = sleeps.clone();
    let result = client
        .exchange_device_access_token(&details)
        .set_time_fn(move || Utc.timestamp_opt(*reading.lock().unwrap(), 0).unwrap())
        .request(
            http_client,
            |interval: Duration| {
                slept.lock().unwrap().push(interval.as_secs());
                *clock.lock().unwrap() += interval.as_secs() as i64;
            },
            None,
        );
    let words = match &result {
        Ok(_) => "Ok(token)".to_string(),
        Err(RequestTokenError::Parse(error, _)) => format!("RequestTokenError::Parse({})", error),
        Err(other) => format!("{:?}", other),
    };
    let polls = server.requests().iter().filter(|r| r.path == "/token").count();
    println!("  sleeps asked for: {:?} s; polls: {}; result: {}", sleeps.lock().unwrap(), polls, words);
    support::conclude(
        matches!(result, Err(RequestTokenError::Parse(..))) && polls == 2,
        "a device-code poll answered 503 ends the library's polling loop with RequestTokenError::Parse after 2 polls: no slower poll follows, and the device authorization is lost",
        "the loop went on after the 503, or ended otherwise",
    )
}
