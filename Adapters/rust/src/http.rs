// The application's HTTP: the function it hands oauth2-rs for every token-endpoint request, and
// the client it calls the resource with.
//
// Why not the library's own function: `oauth2::reqwest::http_client` builds a fresh
// `reqwest::blocking::Client` for each request with no settings (src/reqwest.rs), so it cannot
// trust the CA file the provider's certificate is signed by, nor bound a request's time. The
// library's documentation ("Importing oauth2: selecting an HTTP client interface", lib.rs) says an
// application may pass its own function `FnOnce(HttpRequest) -> Result<HttpResponse, RE>`; this one
// is the library's reqwest function line for line (no redirects, "following redirects opens the
// client up to SSRF vulnerabilities"; every status handed back as it came), over one client built
// with the application's settings. It returns the library's own `oauth2::reqwest::Error`.

use std::io::Read;
use std::time::Duration;

use oauth2::reqwest::HttpClientError;
use oauth2::{HttpRequest, HttpResponse};
use reqwest::blocking::Client;
use reqwest::redirect::Policy;

/// Every exchange is bounded well below the harness's 15 s per message.
const TIMEOUT: Duration = Duration::from_secs(4);

pub struct Http {
    token_endpoint: Client,
    pub resource: Client,
}

impl Http {
    /// `ca_file`: the PEM of the only CA to trust when the provider speaks HTTPS.
    pub fn new(ca_file: Option<&str>) -> Result<Http, String> {
        let configure = |builder: reqwest::blocking::ClientBuilder| -> Result<Client, String> {
            // native-tls (OpenSSL) verifies certificates issued for an IP address; the provider
            // listens on 127.0.0.1, which rustls 0.20 (Debian's) cannot verify.
            let mut builder = builder.use_native_tls().timeout(TIMEOUT).connect_timeout(TIMEOUT);
            if let Some(path) = ca_file {
                let pem = std::fs::read(path).map_err(|e| format!("reading ca_file {}: {}", path, e))?;
                let certificate = reqwest::Certificate::from_pem(&pem).map_err(|e| e.to_string())?;
                builder = builder.tls_built_in_root_certs(false).add_root_certificate(certificate);
            }
            builder.build().map_err(|e| e.to_string())
        };
        Ok(Http {
            token_endpoint: configure(Client::builder().redirect(Policy::none()))?,
            // The resource is the application's own call: reqwest's defaults (it follows up to 10
            // redirects and drops Authorization when one leads to another host or port).
            resource: configure(Client::builder())?,
        })
    }

    /// The function given to oauth2-rs's `request(...)`: src/reqwest.rs's `http_client`, on the
    /// application's client.
    pub fn oauth(&self) -> impl Fn(HttpRequest) -> Result<HttpResponse, HttpClientError> + '_ {
        move |request: HttpRequest| {
            let mut request_builder =
                self.token_endpoint.request(request.method, request.url.as_str()).body(request.body);
            for (name, value) in &request.headers {
                request_builder = request_builder.header(name.as_str(), value.as_bytes());
            }
            let mut response = self
                .token_endpoint
                .execute(request_builder.build().map_err(oauth2::reqwest::Error::Reqwest)?)
                .map_err(oauth2::reqwest::Error::Reqwest)?;
            let mut body = Vec::new();
            response.read_to_end(&mut body).map_err(oauth2::reqwest::Error::Io)?;
            Ok(HttpResponse { status_code: response.status(), headers: response.headers().to_owned(), body })
        }
    }
}
