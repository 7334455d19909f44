// The application's saved session. oauth2-rs hands the application a `StandardTokenResponse` and
// keeps nothing: where the tokens live, when they expire on the application's clock, and what
// is written to disk are the application's. This is the least an application does with it:
// the access token, the refresh token, an expiry computed from `expires_in()` at the time the
// response came, the grant it signed in with, written whole to `storage_dir` after each change.

use std::path::PathBuf;

use oauth2::basic::BasicTokenResponse;
use oauth2::TokenResponse;
use serde::{Deserialize, Serialize};

pub const REFRESH_LEEWAY: f64 = 10.0;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    pub grant: String,
    pub access_token: String,
    pub token_type: String,
    pub refresh_token: Option<String>,
    /// Unix seconds on the application's (the harness's virtual) clock; None: no lifetime stated.
    pub expires_at: Option<f64>,
}

impl Session {
    /// A token response the library returned, received at `now`. A refresh response without a
    /// refresh token leaves the one the application holds (RFC 6749 §6): `previous`.
    pub fn from_response(grant: &str, response: &BasicTokenResponse, now: f64, previous: Option<&Session>) -> Session {
        Session {
            grant: grant.to_string(),
            access_token: response.access_token().secret().clone(),
            token_type: response.token_type().as_ref().to_string(),
            refresh_token: response
                .refresh_token()
                .map(|token| token.secret().clone())
                .or_else(|| previous.and_then(|session| session.refresh_token.clone())),
            expires_at: response.expires_in().map(|lifetime| now + lifetime.as_secs_f64()),
        }
    }

    /// Taken as expired once less than `REFRESH_LEEWAY` seconds are left on the application's
    /// clock: the refresh decision the application makes, since the library makes none. The
    /// leeway keeps a token from being sent in its last seconds, while the request is in flight.
    pub fn expired(&self, now: f64) -> bool {
        matches!(self.expires_at, Some(at) if at - REFRESH_LEEWAY <= now)
    }
}

pub struct Store {
    path: PathBuf,
}

impl Store {
    pub fn new(storage_dir: &str) -> Store {
        Store { path: PathBuf::from(storage_dir).join("oauth2-rs-session.json") }
    }

    pub fn save(&self, session: Option<&Session>) {
        let result = match session {
            Some(session) => {
                let temporary = self.path.with_extension("tmp");
                // Written whole, then renamed: a restart never reads half a file.
                std::fs::write(&temporary, serde_json::to_vec(session).expect("a session serializes"))
                    .and_then(|_| std::fs::rename(&temporary, &self.path))
            }
            None => match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
        };
        if let Err(e) = result {
            eprintln!("saving the session to {}: {}", self.path.display(), e);
        }
    }

    pub fn load(&self) -> Option<Session> {
        let data = std::fs::read(&self.path).ok()?;
        serde_json::from_slice(&data).ok()
    }
}
