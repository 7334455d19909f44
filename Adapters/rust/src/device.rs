// The device authorization grant as the crate documentation shows it ("Device Code Flow",
// lib.rs): `exchange_device_code()?.request(http_client)` for what the user is shown, then
// `exchange_device_access_token(&details).request(http_client, sleep_fn, None)`, the library's
// own polling loop. That loop takes the two things this adapter gives it from the harness:
//
// * `set_time_fn`, the clock the loop reads for the device code's expiry: the virtual `now` of
//   the latest message;
// * `sleep_fn`, the wait between polls: each call of it is one `device_poll` answered with
//   `wait` = the duration the library asked for; it returns when the harness, having moved the
//   virtual clock by that much, sends the next `device_poll`.
//
// So every poll, every interval and when to stop are the library's; the loop runs on a thread
// of its own and the messages step it.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{TimeZone, Utc};
use oauth2::basic::BasicTokenResponse;
use oauth2::devicecode::{DeviceCodeErrorResponse, StandardDeviceAuthorizationResponse};
use oauth2::reqwest::HttpClientError;
use oauth2::RequestTokenError;

use crate::app::App;
use crate::protocol::{classify, ClientError};

pub enum Step {
    /// The library called `sleep_fn` with this duration: the next poll comes after it.
    Wait(Duration),
    Done(Result<BasicTokenResponse, RequestTokenError<HttpClientError, DeviceCodeErrorResponse>>),
}

pub struct DeviceFlow {
    details: Arc<StandardDeviceAuthorizationResponse>,
    clock: Arc<Mutex<f64>>,
    resume: Option<Sender<()>>,
    steps: Option<Receiver<Step>>,
}

impl DeviceFlow {
    /// `exchange_device_code()` (authenticated as at the token endpoint): what the user is shown.
    pub fn start(app: &App) -> Result<DeviceFlow, ClientError> {
        let request = app
            .client
            .exchange_device_code()
            .map_err(|e| ClientError::new("unexpected", "oauth2::ConfigurationError", e.to_string()))?;
        let details: StandardDeviceAuthorizationResponse =
            request.request(app.http.oauth()).map_err(|e| classify(&e))?;
        Ok(DeviceFlow { details: Arc::new(details), clock: Arc::new(Mutex::new(0.0)), resume: None, steps: None })
    }

    pub fn details(&self) -> &StandardDeviceAuthorizationResponse {
        &self.details
    }

    /// One `device_poll`: start the library's loop, or let it out of its sleep; then wait until
    /// it sleeps again or ends.
    pub fn poll(&mut self, app: &Arc<App>, now: f64) -> Step {
        *self.clock.lock().unwrap() = now;
        match &self.resume {
            Some(resume) => {
                let _ = resume.send(());
            }
            None => self.spawn(app.clone()),
        }
        match self.steps.as_ref().unwrap().recv_timeout(Duration::from_secs(12)) {
            Ok(step) => step,
            Err(e) => Step::Done(Err(RequestTokenError::Other(format!("the polling loop did not answer: {}", e)))),
        }
    }

    fn spawn(&mut self, app: Arc<App>) {
        let (resume_tx, resume_rx) = channel::<()>();
        let (step_tx, step_rx) = channel::<Step>();
        self.resume = Some(resume_tx);
        self.steps = Some(step_rx);
        let details = self.details.clone();
        let clock = self.clock.clone();
        let sleeps = step_tx.clone();
        std::thread::spawn(move || {
            let time_fn = move || {
                let now = *clock.lock().unwrap();
                Utc.timestamp_millis_opt((now * 1000.0).round() as i64).unwrap()
            };
            let sleep_fn = |interval: Duration| {
                let _ = sleeps.send(Step::Wait(interval));
                if resume_rx.recv().is_err() {
                    // The scenario ended while the loop slept: nothing more to poll for; the
                    // process is about to end, so this thread stays asleep.
                    loop {
                        std::thread::park();
                    }
                }
            };
            let result = app
                .client
                .exchange_device_access_token(&details)
                .set_time_fn(time_fn)
                .request(app.http.oauth(), sleep_fn, None);
            let _ = step_tx.send(Step::Done(result));
        });
    }
}
