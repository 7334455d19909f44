// What every probe shares: a throwaway HTTP/1.1 server on 127.0.0.1 (port 0) that answers each
// request with the next canned answer and prints what it received, the client every probe
// registers with it and the token requests they make, and the closing line. Nothing of the
// adapter: std and the library. Connections are closed after each answer; every read and
// write is bounded in time.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use oauth2::basic::{BasicClient, BasicErrorResponse, BasicTokenResponse};
use oauth2::{AuthUrl, ClientId, ClientSecret, RefreshToken, RequestTokenError, ResourceOwnerPassword, ResourceOwnerUsername, TokenUrl};

pub struct Answer {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
}

/// A JSON answer.
pub fn json(status: u16, body: &str) -> Answer {
    Answer { status, headers: vec![("Content-Type", "application/json".into())], body: body.into() }
}

pub fn answer(status: u16, headers: Vec<(&'static str, String)>, body: &str) -> Answer {
    Answer { status, headers, body: body.into() }
}

#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub authorization: Option<String>,
    pub body: String,
}

pub struct Server {
    pub base: String,
    pub received: Arc<Mutex<Vec<Received>>>,
}

impl Server {
    /// Serves `answers` in order, one per request; past the last, 500 with an empty body.
    pub fn start(answers: Vec<Answer>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        std::thread::spawn(move || {
            let mut answers = answers.into_iter();
            for stream in listener.incoming().take(50) {
                let stream = match stream {
                    Ok(stream) => stream,
                    Err(_) => continue,
                };
                let next = answers.next().unwrap_or_else(|| answer(500, vec![], ""));
                let request = match read_request(&stream) {
                    Some(request) => request,
                    None => continue,
                };
                println!(
                    "  request: {} {} authorization={} body={}",
                    request.method,
                    request.path,
                    request.authorization.as_deref().unwrap_or("-"),
                    request.body
                );
                // Recorded before it is answered: once the library has its answer, the probe may
                // count the requests at once, and the last one must be among them.
                log.lock().unwrap().push(request);
                write_answer(stream, next);
            }
        });
        Server { base, received }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub fn requests(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

fn read_request(stream: &TcpStream) -> Option<Received> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    stream.set_write_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut length = 0usize;
    let mut authorization = None;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "authorization" => authorization = Some(value.trim().to_string()),
                _ => {}
            }
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok()?;
    Some(Received { method, path, authorization, body: String::from_utf8_lossy(&body).into_owned() })
}

fn write_answer(mut out: TcpStream, answer: Answer) {
    let mut head = format!("HTTP/1.1 {} Probe\r\nContent-Length: {}\r\nConnection: close\r\n", answer.status, answer.body.len());
    for (name, value) in &answer.headers {
        head.push_str(&format!("{}: {}\r\n", name, value));
    }
    head.push_str("\r\n");
    // A client that hung up early gets nothing more; the request is on record already.
    let _ = out.write_all(head.as_bytes()).and_then(|_| out.write_all(answer.body.as_bytes())).and_then(|_| out.flush());
}

/// The probe's last line and exit status: `confirmed: CLAIM` (0) or `not confirmed: WHAT` (1).
pub fn conclude(confirmed: bool, claim: &str, otherwise: &str) -> ! {
    if confirmed {
        println!("confirmed: {}", claim);
        std::process::exit(0)
    } else {
        println!("not confirmed: {}", otherwise);
        std::process::exit(1)
    }
}

/// A guard against a hang anywhere: the probe ends itself after 15 s.
pub fn watchdog() {
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_secs(15));
        println!("not confirmed: the probe did not finish within 15 s");
        std::process::exit(1)
    });
}

/// A token request's result as the application gets it through the library's documented HTTP
/// function, oauth2::reqwest::http_client.
pub type TokenResult = Result<BasicTokenResponse, RequestTokenError<oauth2::reqwest::HttpClientError, BasicErrorResponse>>;

/// The confidential client every probe registers, as the library's README builds it, with the
/// throwaway server's /authorize and /token.
pub fn client(server: &Server) -> BasicClient {
    BasicClient::new(
        ClientId::new("probe-client".into()),
        Some(ClientSecret::new("probe-secret".into())),
        AuthUrl::new(server.url("/authorize")).unwrap(),
        Some(TokenUrl::new(server.url("/token")).unwrap()),
    )
}

/// The password grant (user, pass), through oauth2::reqwest::http_client.
pub fn password_grant(client: &BasicClient) -> TokenResult {
    client
        .exchange_password(&ResourceOwnerUsername::new("user".into()), &ResourceOwnerPassword::new("pass".into()))
        .request(oauth2::reqwest::http_client)
}

/// A refresh with refresh token rt-1, through oauth2::reqwest::http_client.
pub fn refresh(client: &BasicClient) -> TokenResult {
    client.exchange_refresh_token(&RefreshToken::new("rt-1".into())).request(oauth2::reqwest::http_client)
}

/// The token request a probe of a token response makes, by its argument: none, the password
/// grant (a sign-in's token response); `refresh`, a refresh with rt-1 (a refresh response, the
/// answer every client reads, however it signed in). Returns what the answer is called, and the
/// request.
pub fn token_request_from_args() -> (&'static str, fn(&BasicClient) -> TokenResult) {
    match std::env::args().nth(1).as_deref() {
        None => ("token response", password_grant),
        Some("refresh") => ("refresh response", refresh),
        Some(other) => {
            eprintln!("usage: {} [refresh] (not {:?})", std::env::args().next().unwrap_or_default(), other);
            std::process::exit(2)
        }
    }
}

/// One 200 JSON answer a value, its body made from the value.
pub fn ok_for_each<T>(values: &[T], body: impl Fn(&T) -> String) -> Vec<Answer> {
    values.iter().map(|value| json(200, &body(value))).collect()
}
