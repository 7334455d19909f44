// An application using oauth2-rs 4.3 the way its crate documentation shows (lib.rs, "Getting
// started" and the sections on each grant): one `BasicClient`, `exchange_password`,
// `exchange_client_credentials`, `authorize_url` + `exchange_code` with PKCE,
// `exchange_refresh_token`, each sent with `.request(http_client)`.
//
// What the library leaves to the application, done here the least way: it keeps the tokens
// (store.rs), decides to refresh when its stored expiry has passed, checks `state` as the
// documentation tells it to, and calls the resource itself with `Authorization: Bearer`.

use std::sync::Mutex;

use oauth2::basic::{BasicClient, BasicErrorResponseType};
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, DeviceAuthorizationUrl,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, RefreshToken, RequestTokenError,
    ResourceOwnerPassword, ResourceOwnerUsername, TokenUrl,
};
use serde::Deserialize;
use serde_json::Value;

use crate::http::Http;
use crate::protocol::{classify, resource_error, ClientError};
use crate::store::{Session, Store};

#[derive(Debug, Clone, Deserialize)]
pub struct Environment {
    pub token_endpoint: String,
    pub authorization_endpoint: String,
    pub redirect_uri: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    pub username: String,
    pub password: String,
    pub ca_file: Option<String>,
    pub storage_dir: String,
    pub device_authorization_endpoint: Option<String>,
}

pub struct App {
    pub environment: Environment,
    pub client: BasicClient,
    pub http: Http,
    store: Store,
    /// The application's session, one lock for all its threads: a call that finds the token
    /// expired refreshes while it holds it.
    session: Mutex<Option<Session>>,
    /// What `authorize_url` gave back, kept until the redirect comes.
    pending: Mutex<Option<(CsrfToken, PkceCodeVerifier)>>,
}

impl App {
    /// What an application builds at its start: its client and HTTP, and the session it saved.
    pub fn launch(environment: Environment) -> Result<App, String> {
        let mut client = BasicClient::new(
            ClientId::new(environment.client_id.clone()),
            environment.client_secret.clone().map(ClientSecret::new),
            AuthUrl::new(environment.authorization_endpoint.clone()).map_err(|e| e.to_string())?,
            Some(TokenUrl::new(environment.token_endpoint.clone()).map_err(|e| e.to_string())?),
        )
        .set_redirect_uri(RedirectUrl::new(environment.redirect_uri.clone()).map_err(|e| e.to_string())?);
        if let Some(url) = &environment.device_authorization_endpoint {
            client = client
                .set_device_authorization_url(DeviceAuthorizationUrl::new(url.clone()).map_err(|e| e.to_string())?);
        }
        let http = Http::new(environment.ca_file.as_deref())?;
        let store = Store::new(&environment.storage_dir);
        let saved = store.load();
        Ok(App { environment, client, http, store, session: Mutex::new(saved), pending: Mutex::new(None) })
    }

    pub fn session(&self) -> Option<Session> {
        self.session.lock().unwrap().clone()
    }

    pub fn keep(&self, session: Option<Session>) {
        let mut held = self.session.lock().unwrap();
        self.store.save(session.as_ref());
        *held = session;
    }

    pub fn login(&self, grant: &str, now: f64) -> Result<(), ClientError> {
        let http = self.http.oauth();
        let response = match grant {
            "password" => self
                .client
                .exchange_password(
                    &ResourceOwnerUsername::new(self.environment.username.clone()),
                    &ResourceOwnerPassword::new(self.environment.password.clone()),
                )
                .request(http),
            "client_credentials" => self.client.exchange_client_credentials().request(http),
            "refresh_token" => {
                let mut held = self.session.lock().unwrap();
                return self.refresh(&mut held, now);
            }
            other => {
                return Err(ClientError::new("unsupported", "adapter", format!("no {} grant in oauth2-rs", other)))
            }
        };
        let response = response.map_err(|e| classify(&e))?;
        self.keep(Some(Session::from_response(grant, &response, now, None)));
        Ok(())
    }

    /// A refresh with the refresh token the application holds, under the session's lock. A
    /// refresh refused with `invalid_grant` ends the session: the documented code says the grant
    /// is dead, so the application forgets it and has the user sign in again.
    fn refresh(&self, held: &mut Option<Session>, now: f64) -> Result<(), ClientError> {
        let current = match held.as_ref() {
            Some(session) if session.grant == "client_credentials" => {
                // No refresh token with this grant: the application asks again with it.
                let response = self.client.exchange_client_credentials().request(self.http.oauth());
                let response = response.map_err(|e| classify(&e))?;
                let session = Session::from_response("client_credentials", &response, now, None);
                self.store.save(Some(&session));
                *held = Some(session);
                return Ok(());
            }
            Some(session) => session.clone(),
            None => return Err(ClientError::new("authorization_required", "application", "not signed in")),
        };
        let refresh_token = match &current.refresh_token {
            Some(token) => RefreshToken::new(token.clone()),
            None => {
                return Err(ClientError::new("authorization_required", "application", "no refresh token to refresh with"))
            }
        };
        match self.client.exchange_refresh_token(&refresh_token).request(self.http.oauth()) {
            Ok(response) => {
                let session = Session::from_response(&current.grant, &response, now, Some(&current));
                self.store.save(Some(&session));
                *held = Some(session);
                Ok(())
            }
            Err(error) => {
                if let RequestTokenError::ServerResponse(response) = &error {
                    if *response.error() == BasicErrorResponseType::InvalidGrant {
                        self.store.save(None);
                        *held = None;
                    }
                }
                Err(classify(&error))
            }
        }
    }

    /// The application's resource call: the stored access token, refreshed first when its
    /// stored expiry has passed, sent as `Authorization: Bearer` (reqwest's `bearer_auth`).
    pub fn request(&self, method: &str, url: &str, headers: &Value, body: Option<&str>, now: f64) -> Result<(u16, String), ClientError> {
        let access_token = {
            let mut held = self.session.lock().unwrap();
            if held.as_ref().map_or(false, |session| session.expired(now)) {
                self.refresh(&mut held, now)?;
            }
            match held.as_ref() {
                Some(session) => session.access_token.clone(),
                None => return Err(ClientError::new("authorization_required", "application", "not signed in")),
            }
        };
        let method = reqwest::Method::from_bytes(method.as_bytes())
            .map_err(|e| ClientError::new("unexpected", "adapter", e.to_string()))?;
        let mut call = self.http.resource.request(method, url).bearer_auth(access_token);
        if let Some(headers) = headers.as_object() {
            for (name, value) in headers {
                if let Some(value) = value.as_str() {
                    call = call.header(name.as_str(), value);
                }
            }
        }
        if let Some(body) = body {
            call = call.body(body.to_string());
        }
        let response = call.send().map_err(|e| resource_error(&e))?;
        let status = response.status().as_u16();
        let text = response.text().map_err(|e| resource_error(&e))?;
        Ok((status, text))
    }

    /// `authorize_url` with a random state and an S256 PKCE challenge, as "Getting started" does.
    pub fn authorization_url(&self) -> String {
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state) = self.client.authorize_url(CsrfToken::new_random).set_pkce_challenge(challenge).url();
        *self.pending.lock().unwrap() = Some((state, verifier));
        url.to_string()
    }

    /// The redirect: "your code should verify that the `state` parameter returned by the server
    /// matches `csrf_state`" (lib.rs), then `exchange_code` with the PKCE verifier. The
    /// documentation reads only `code` and `state` from the redirect.
    pub fn complete_authorization(&self, redirect_url: &str, now: f64) -> Result<(), ClientError> {
        let url = url::Url::parse(redirect_url).map_err(|e| ClientError::new("protocol", "url::ParseError", e.to_string()))?;
        let parameter = |name: &str| url.query_pairs().find(|(key, _)| key == name).map(|(_, value)| value.into_owned());
        let (state, verifier) = match self.pending.lock().unwrap().take() {
            Some(pending) => pending,
            None => return Err(ClientError::new("protocol", "application", "no authorization request under way")),
        };
        if parameter("state").as_deref() != Some(state.secret().as_str()) {
            return Err(ClientError::new("protocol", "application", "the state of the redirect is not the one sent"));
        }
        let code = match parameter("code") {
            Some(code) => code,
            None => return Err(ClientError::new("protocol", "application", "the redirect carries no code")),
        };
        let response = self
            .client
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(verifier)
            .request(self.http.oauth())
            .map_err(|e| classify(&e))?;
        self.keep(Some(Session::from_response("authorization_code", &response, now, None)));
        Ok(())
    }

    /// The `tokens` sign-in: the application hands over the session it restored from storage.
    /// oauth2-rs holds no tokens, so the application's own session is where they go.
    pub fn restore(&self, message: &Value) {
        let text = |name: &str| message.get(name).and_then(Value::as_str).map(str::to_string);
        self.keep(Some(Session {
            grant: "restored".into(),
            access_token: text("access_token").unwrap_or_default(),
            token_type: text("token_type").unwrap_or_else(|| "Bearer".into()),
            refresh_token: text("refresh_token"),
            expires_at: message.get("expires_at").and_then(Value::as_f64),
        }));
    }
}
