// cli-oauth-adapter drives github.com/cli/oauth (Debian's golang-github-cli-oauth-dev 1.0.1), the
// library GitHub's CLI signs in with, behind the OAuthConformance adapter protocol
// (docs/adapter-protocol.md): one JSON message a line on stdin, one answer a line on stdout,
// logs on stderr. See cli-oauth.yaml for the profile. protocol.go, serve.go, httpclient.go,
// resource.go and errortypes.go are Adapters/go's, built beside these files by install.sh.
package main

import (
	"log"
	"runtime/debug"
	"time"
)

const (
	libraryName    = "github.com/cli/oauth"
	libraryVersion = "1.0.1" // the Debian package this is built against (install.sh checks it)
)

// device_grant: the library's own polling loop (device.go, poller.go). virtual_clock: that loop's
// waits and the code's lifetime are on the messages' clock; nothing else reads a clock.
// custom_ca: the *http.Client the application hands the library trusts ca_file alone.
var capabilities = []string{"device_grant", "virtual_clock", "custom_ca"}

func main() {
	// The library prints only from Flow.DeviceFlow's default display, which is not used; serve
	// sends whatever it prints to stderr all the same.
	serve(library[*client]{name: libraryName, version: libraryVersion, capabilities: capabilities, open: newClient})
}

// answer answers the device flow's steps, login and request (serve.go answers the rest).
func (c *client) answer(m *message) answer {
	now := time.UnixMilli(int64(*m.Now*1000 + 0.5)).UTC()
	switch m.Op {
	case "device_authorization":
		return c.deviceAuthorization()
	case "device_poll":
		return c.devicePoll(now)
	}
	return answerFrom(c.run(m))
}

// deviceAuthorization is the first half of the device flow: what the application shows the user.
func (c *client) deviceAuthorization() answer {
	c.mu.Lock()
	if c.device != nil {
		c.device.end() // a new sign-in replaces one under way, as a new DeviceFlow call would
		c.device = nil
	}
	c.mu.Unlock()
	flow, err := c.startDevice()
	if err != nil {
		return answerFrom(failure(logged("device_authorization", classify(err))))
	}
	c.mu.Lock()
	c.device = flow
	c.mu.Unlock()
	var complete interface{}
	if flow.code.VerificationURIComplete != "" {
		complete = flow.code.VerificationURIComplete
	}
	return answer{"ok": true, "user_code": flow.code.UserCode, "verification_uri": flow.code.VerificationURI,
		"verification_uri_complete": complete}
}

// devicePoll steps the library's loop once; its token, when it returns one, is the application's.
func (c *client) devicePoll(now time.Time) answer {
	c.mu.Lock()
	flow := c.device
	c.mu.Unlock()
	if flow == nil {
		return answerFrom(failure(&clientError{Category: "authorization_required", Type: "application", Message: "no device authorization under way"}))
	}
	step := c.poll(flow, now)
	if step.wait != nil {
		return answer{"ok": true, "wait": step.wait.Seconds()}
	}
	c.mu.Lock()
	c.device = nil
	c.mu.Unlock()
	if step.result.err != nil {
		return answerFrom(failure(logged("device_poll", classify(step.result.err))))
	}
	token := step.result.token
	log.Printf("device.Wait returned a token (token_type %q, scope %q, refresh token: %v)", token.Type, token.Scope, token.RefreshToken != "")
	c.keep(token)
	return answerFrom(success(200, nil))
}

// run does one login or request; a panic from the library is reported as the crash it is.
func (c *client) run(m *message) (result outcome) {
	defer func() {
		if recovered := recover(); recovered != nil {
			log.Printf("%s panicked: %v\n%s", m.Op, recovered, debug.Stack())
			result = failure(panicError(recovered))
		}
	}()
	switch m.Op {
	case "login":
		// No grant but the device code's (and the web flow's code): no password,
		// client_credentials or refresh call in the library.
		return failure(&clientError{Category: "unsupported", Type: "application", Message: "github.com/cli/oauth has no " + m.Grant + " grant"})
	case "request":
		status, body, err := c.request(m.Method, m.URL, m.Headers, m.Body)
		if err != nil {
			return failure(logged("request", classify(err)))
		}
		return success(status, &body)
	}
	return failure(&clientError{Category: "unsupported", Type: "application", Message: "unknown operation " + m.Op})
}

func logged(op string, e *clientError) *clientError {
	log.Printf("%s failed: %s (%s, status %d, code %q): %s", op, e.Category, e.Type, e.Status, e.OAuthError, e.Message)
	return e
}
