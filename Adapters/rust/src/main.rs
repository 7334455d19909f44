// oauth2-rs-adapter drives the Rust crate oauth2 4.3 (Debian's librust-oauth2-dev) behind the
// OAuthConformance adapter protocol (docs/adapter-protocol.md): one JSON message a line on stdin,
// one answer a line on stdout, logs on stderr. The profile is oauth2-rs.yaml.

mod app;
mod device;
mod http;
mod protocol;
mod store;

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use serde_json::{json, Value};

use app::{App, Environment};
use device::{DeviceFlow, Step};
use protocol::{failure, fault, ok, success, ClientError, PROTOCOL};

const LIBRARY: &str = "oauth2-rs";
const VERSION: &str = "4.3.0 (Debian librust-oauth2-dev)";
// proactive_refresh and concurrency are the application's (app.rs): the profile says so under
// application_part. virtual_clock: the library reads no clock but the device loop's time_fn,
// which is given the messages' `now`; the application's expiry is kept on that clock too.
const CAPABILITIES: &[&str] =
    &["proactive_refresh", "authorization_code", "restart", "custom_ca", "concurrency", "virtual_clock", "device_grant"];

#[derive(Default)]
struct Adapter {
    app: Option<Arc<App>>,
    device: Option<DeviceFlow>,
}

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut adapter = Adapter::default();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("reading stdin: {}", e);
                return;
            }
        };
        let (id, op, mut answer) = match serde_json::from_str::<Value>(&line) {
            Ok(message) => {
                let op = message.get("op").and_then(Value::as_str).unwrap_or_default().to_string();
                eprintln!("<- {}", op);
                let answer = catch_unwind(AssertUnwindSafe(|| adapter.handle(&op, &message)))
                    .unwrap_or_else(|panic| fault(format!("adapter panic: {}", panic_words(&panic))));
                (message.get("id").cloned(), op, answer)
            }
            Err(e) => (None, String::new(), fault(format!("unreadable message: {}", e))),
        };
        if let Some(id) = id {
            answer["id"] = id;
        }
        let mut out = stdout.lock();
        if writeln!(out, "{}", answer).and_then(|_| out.flush()).is_err() {
            return;
        }
        if op == "shutdown" {
            return;
        }
    }
}

impl Adapter {
    fn handle(&mut self, op: &str, message: &Value) -> Value {
        match op {
            "hello" => {
                if message.get("protocol").and_then(Value::as_u64) != Some(PROTOCOL) {
                    return failure(&ClientError::new("unsupported", "adapter", "this adapter speaks protocol 1"));
                }
                return json!({"ok": true, "protocol": PROTOCOL, "name": LIBRARY, "version": VERSION, "capabilities": CAPABILITIES});
            }
            "reset" => {
                self.device = None;
                let environment: Environment = match message.get("environment").cloned().map(serde_json::from_value) {
                    Some(Ok(environment)) => environment,
                    Some(Err(e)) => return fault(format!("unreadable environment: {}", e)),
                    None => return fault("reset without environment"),
                };
                return match App::launch(environment) {
                    Ok(app) => {
                        self.app = Some(Arc::new(app));
                        ok()
                    }
                    Err(e) => fault(format!("cannot make the client: {}", e)),
                };
            }
            "shutdown" => return ok(),
            _ => {}
        }
        let app = match &self.app {
            Some(app) => app.clone(),
            None => return fault(format!("{} before reset", op)),
        };
        let now = match message.get("now").and_then(Value::as_f64) {
            Some(now) => now,
            None => return fault(format!("{} without now", op)),
        };
        match op {
            "advance" => ok(), // no timers: the next message's `now` is the new time
            "end" => {
                // The provider is about to stop: drop the clients and their pooled connections.
                self.device = None;
                self.app = None;
                ok()
            }
            "tokens" => json!({"ok": true, "tokens": app.session().map(|session| json!({
                "access_token": session.access_token,
                "refresh_token": session.refresh_token,
                "expires_at": session.expires_at,
            }))}),
            "restore_tokens" => {
                app.restore(message);
                ok()
            }
            "authorization_url" => json!({"ok": true, "url": app.authorization_url()}),
            "device_authorization" => match DeviceFlow::start(&app) {
                Ok(flow) => {
                    let details = flow.details();
                    let answer = json!({
                        "ok": true,
                        "user_code": details.user_code().secret(),
                        "verification_uri": details.verification_uri().as_str(),
                        "verification_uri_complete": details.verification_uri_complete().map(|uri| uri.secret().clone()),
                    });
                    self.device = Some(flow);
                    answer
                }
                Err(e) => failure(&e),
            },
            "device_poll" => self.device_poll(&app, now),
            "restart" => {
                // As if relaunched: everything in memory goes; the session file stays.
                self.device = None;
                let environment = app.environment.clone();
                drop(app);
                self.app = None;
                match App::launch(environment) {
                    Ok(app) => {
                        self.app = Some(Arc::new(app));
                        ok()
                    }
                    Err(e) => fault(format!("cannot make the client again: {}", e)),
                }
            }
            "concurrently" => {
                let operations = message.get("operations").and_then(Value::as_array).cloned().unwrap_or_default();
                let outcomes: Vec<Value> = std::thread::scope(|scope| {
                    let threads: Vec<_> = operations
                        .iter()
                        .map(|operation| {
                            let app = &app;
                            scope.spawn(move || run(app, operation, now))
                        })
                        .collect();
                    threads.into_iter().map(|thread| thread.join().unwrap_or_else(|_| fault("thread panicked"))).collect()
                });
                json!({"ok": true, "outcomes": outcomes})
            }
            _ => run(&app, message, now),
        }
    }

    fn device_poll(&mut self, app: &Arc<App>, now: f64) -> Value {
        let flow = match self.device.as_mut() {
            Some(flow) => flow,
            None => return failure(&ClientError::new("authorization_required", "application", "no device authorization under way")),
        };
        match flow.poll(app, now) {
            Step::Wait(interval) => json!({"ok": true, "wait": interval.as_secs_f64()}),
            Step::Done(result) => {
                self.device = None;
                match result {
                    Ok(response) => {
                        app.keep(Some(store::Session::from_response("device", &response, now, None)));
                        success(200, None)
                    }
                    Err(e) => failure(&protocol::classify(&e)),
                }
            }
        }
    }
}

/// One login, request or complete_authorization; a panic inside the library is the crash it is.
fn run(app: &App, message: &Value, now: f64) -> Value {
    let op = message.get("op").and_then(Value::as_str).unwrap_or_default();
    let text = |name: &str| message.get(name).and_then(Value::as_str).unwrap_or_default().to_string();
    let result = catch_unwind(AssertUnwindSafe(|| match op {
        "login" => app.login(&text("grant"), now).map(|_| success(200, None)),
        "request" => app
            .request(&text("method"), &text("url"), message.get("headers").unwrap_or(&Value::Null), message.get("body").and_then(Value::as_str), now)
            .map(|(status, body)| success(status, Some(body))),
        "complete_authorization" => app.complete_authorization(&text("redirect_url"), now).map(|_| success(200, None)),
        other => Err(ClientError::new("unsupported", "adapter", format!("operation {} is not implemented", other))),
    }));
    match result {
        Ok(Ok(answer)) => answer,
        Ok(Err(error)) => {
            eprintln!("{} failed: {:?}", op, error);
            failure(&error)
        }
        Err(panic) => failure(&ClientError::new("unexpected", "panic", panic_words(&panic))),
    }
}

fn panic_words(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|words| words.to_string()))
        .unwrap_or_else(|| "panic".into())
}
