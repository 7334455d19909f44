// The adapter protocol's answers (docs/adapter-protocol/messages.md) and what oauth2-rs surfaced,
// put into the protocol's error object. The harness derives the category from the RFC 6749 §5.2
// code where there is one; `category` is given only for what no code tells.

use oauth2::basic::BasicErrorResponse;
use oauth2::{ErrorResponse, RequestTokenError};
use serde_json::{json, Map, Value};

pub const PROTOCOL: u64 = 1;

/// What the library (or, for the application's own part, the application) surfaced.
#[derive(Debug, Clone, Default)]
pub struct ClientError {
    pub category: Option<&'static str>,
    pub oauth_error: Option<String>,
    pub status: Option<u16>,
    pub kind: String,
    pub message: String,
}

impl ClientError {
    pub fn new(category: &'static str, kind: &str, message: impl Into<String>) -> Self {
        ClientError { category: Some(category), kind: kind.to_string(), message: message.into(), ..Default::default() }
    }

    fn to_json(&self) -> Value {
        let mut error = Map::new();
        if let Some(category) = self.category {
            error.insert("category".into(), json!(category));
        }
        if let Some(code) = &self.oauth_error {
            error.insert("oauth_error".into(), json!(code));
        }
        if let Some(status) = self.status {
            error.insert("status".into(), json!(status));
        }
        error.insert("type".into(), json!(self.kind));
        error.insert("message".into(), json!(self.message));
        Value::Object(error)
    }
}

pub fn ok() -> Value {
    json!({"ok": true})
}

pub fn success(status: u16, body: Option<String>) -> Value {
    json!({"ok": true, "status": status, "body": body})
}

pub fn failure(error: &ClientError) -> Value {
    json!({"ok": false, "error": error.to_json()})
}

pub fn fault(message: impl Into<String>) -> Value {
    json!({"fault": message.into()})
}

/// The whole chain of an error's messages, as `{:#}` would print it with anyhow.
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut words = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        words.push_str(": ");
        words.push_str(&cause.to_string());
        source = cause.source();
    }
    words
}

/// A transport failure of reqwest: `tls` when the handshake refused the certificate, else
/// `transient` (refused or dropped connection, timeout).
pub fn transport_category(error: &dyn std::error::Error) -> &'static str {
    // OpenSSL's words for a refused handshake, as native-tls passes them on through reqwest
    // ("error:0A000086:SSL routines:…:certificate verify failed").
    let words = chain(error).to_lowercase();
    if words.contains("certificate") || words.contains("ssl routines") || words.contains("handshake") {
        "tls"
    } else {
        "transient"
    }
}

/// oauth2-rs's `RequestTokenError`, as the application receives it from `request(http_client)`.
/// `ServerResponse` carries the parsed §5.2 error (code, description, uri) and nothing of the
/// HTTP answer: the status is not surfaced (lib.rs `check_response_status`), so none is given.
pub fn classify<T>(error: &RequestTokenError<oauth2::reqwest::HttpClientError, T>) -> ClientError
where
    T: ErrorResponse + ServerCode + std::fmt::Display + 'static,
{
    match error {
        RequestTokenError::ServerResponse(response) => ClientError {
            category: None,
            oauth_error: Some(response.code()),
            status: None,
            kind: "oauth2::RequestTokenError::ServerResponse".into(),
            message: format!("{}: {}", error, response),
        },
        RequestTokenError::Request(cause) => ClientError::new(
            transport_category(cause),
            "oauth2::RequestTokenError::Request",
            chain(error),
        ),
        // The library could not read the answer (a cut-off JSON, an HTML error page, a 200
        // without access_token): an answer the application cannot use.
        RequestTokenError::Parse(cause, _body) => ClientError::new(
            "protocol",
            "oauth2::RequestTokenError::Parse",
            format!("{}: {}", error, cause),
        ),
        RequestTokenError::Other(_) => {
            ClientError::new("protocol", "oauth2::RequestTokenError::Other", error.to_string())
        }
    }
}

/// The RFC 6749 §5.2 code of a parsed error response, as its `error()` names it.
pub trait ServerCode {
    fn code(&self) -> String;
}

impl ServerCode for BasicErrorResponse {
    fn code(&self) -> String {
        self.error().as_ref().to_string()
    }
}

impl ServerCode for oauth2::devicecode::DeviceCodeErrorResponse {
    fn code(&self) -> String {
        self.error().as_ref().to_string()
    }
}

/// The reqwest error of the application's own resource call.
pub fn resource_error(error: &reqwest::Error) -> ClientError {
    ClientError::new(transport_category(error), "reqwest::Error", chain(error))
}
