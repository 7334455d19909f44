// Probe: token responses whose token_type is not Bearer. StandardTokenResponse lower-cases the
// token_type (helpers::deserialize_untagged_enum_case_insensitive) and BasicTokenType::from_str
// (basic.rs) makes "mac" BasicTokenType::Mac and any other string BasicTokenType::Extension: the
// token response is returned Ok, the library refuses none. A sign-in's token response (the
// password grant), or with the argument `refresh` a refresh response: the same parse.
#[path = "support/mod.rs"]
mod support;

use oauth2::basic::BasicTokenType;
use oauth2::TokenResponse;

fn main() {
    support::watchdog();
    let (answer, token_request) = support::token_request_from_args();
    let types = ["mac", "n_a", "dpop"];
    let server = support::Server::start(support::ok_for_each(&types, |kind| {
        format!(r#"{{"access_token":"at-1","token_type":"{}","expires_in":3600}}"#, kind)
    }));
    let client = support::client(&server);
    let mut all_accepted = true;
    for kind in types {
        let result = token_request(&client);
        match result {
            Ok(token) => {
                println!("  token_type {:?} -> Ok, token_type() = {:?}", kind, token.token_type());
                all_accepted &= *token.token_type() != BasicTokenType::Bearer;
            }
            Err(error) => {
                println!("  token_type {:?} -> Err({:?})", kind, error);
                all_accepted = false;
            }
        }
    }
    support::conclude(
        all_accepted,
        &format!("{}s with token_type mac, n_a and dpop are accepted (Ok, as BasicTokenType::Mac, Extension(\"n_a\"), Extension(\"dpop\")): the library refuses no token type", answer),
        "a token type was refused",
    )
}
