// cli-oauth-adapter drives github.com/cli/oauth (Debian's golang-github-cli-oauth-dev 1.0.1), the
// library GitHub's CLI signs in with, behind the OAuthConformance adapter protocol
// (docs/adapter-protocol.md): one JSON message a line on stdin, one answer a line on stdout,
// logs on stderr. See cli-oauth.yaml for the profile. protocol.go, httpclient.go and
// errortypes.go are Adapters/go's, shared through symbolic links.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
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

type adapter struct {
	client *client
}

func main() {
	log.SetOutput(os.Stderr)
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	// stdout belongs to the protocol. The library prints only from Flow.DeviceFlow's default
	// display, which is not used; keep it that way.
	protocolOut := os.Stdout
	os.Stdout = os.Stderr
	codec := newCodec(os.Stdin, protocolOut)
	a := &adapter{}
	for {
		line, err := codec.read()
		if err == io.EOF {
			return
		}
		if err != nil {
			log.Printf("reading stdin: %v", err)
			return
		}
		var m message
		var reply answer
		if err := json.Unmarshal(line, &m); err != nil {
			reply = answer{"fault": "unreadable message: " + err.Error()}
		} else {
			log.Printf("<- %s", m.Op)
			reply = a.handle(&m)
		}
		reply["id"] = m.ID
		if err := codec.write(reply); err != nil {
			log.Printf("writing stdout: %v", err)
			return
		}
		if m.Op == "shutdown" {
			return
		}
	}
}

// handle answers one message; a panic in the adapter's own code becomes a fault.
func (a *adapter) handle(m *message) (reply answer) {
	defer func() {
		if recovered := recover(); recovered != nil {
			reply = answer{"fault": fmt.Sprintf("adapter panic: %v\n%s", recovered, debug.Stack())}
		}
	}()
	switch m.Op {
	case "hello":
		if m.Protocol != protocolVersion {
			return answerFrom(failure(&clientError{Category: "unsupported", Message: fmt.Sprintf("this adapter speaks protocol %d", protocolVersion)}))
		}
		return answer{"ok": true, "protocol": protocolVersion, "name": libraryName, "version": libraryVersion, "capabilities": capabilities}
	case "reset":
		if a.client != nil {
			a.client.close()
		}
		if m.Environment == nil {
			return answer{"fault": "reset without environment"}
		}
		c, err := newClient(m.Environment)
		if err != nil {
			return answer{"fault": "cannot make the client: " + err.Error()}
		}
		a.client = c
		return answer{"ok": true}
	case "shutdown":
		if a.client != nil {
			a.client.close()
		}
		return answer{"ok": true}
	}
	if a.client == nil {
		return answer{"fault": m.Op + " before reset"}
	}
	if m.Now == nil {
		return answer{"fault": m.Op + " without now"}
	}
	now := time.UnixMilli(int64(*m.Now*1000 + 0.5)).UTC()
	c := a.client
	switch m.Op {
	case "advance":
		return answer{"ok": true} // the device loop's next wait reads the next message's `now`
	case "tokens":
		return answer{"ok": true, "tokens": c.tokens()}
	case "end":
		c.close()
		return answer{"ok": true}
	case "device_authorization":
		return a.deviceAuthorization()
	case "device_poll":
		return a.devicePoll(now)
	}
	return answerFrom(a.run(m))
}

// deviceAuthorization is the first half of the device flow: what the application shows the user.
func (a *adapter) deviceAuthorization() answer {
	c := a.client
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
func (a *adapter) devicePoll(now time.Time) answer {
	c := a.client
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
func (a *adapter) run(m *message) (result outcome) {
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
		status, body, err := a.client.request(m.Method, m.URL, m.Headers, m.Body)
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
