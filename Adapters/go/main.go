// x-oauth2-adapter drives golang.org/x/oauth2 (Debian's golang-golang-x-oauth2-dev 0.3.0), and for
// OpenID Connect github.com/coreos/go-oidc 2.1.0 (golang-github-coreos-go-oidc-dev), behind the
// OAuthConformance adapter protocol, docs/adapter-protocol.md: one JSON message a line on stdin,
// one answer a line on stdout, logs on stderr (serve.go). See x-oauth2.yaml for the profile.
package main

import (
	"context"
	"log"
	"runtime/debug"
	"sync"
	"time"
)

const (
	libraryName    = "golang.org/x/oauth2"
	libraryVersion = "0.3.0 (go-oidc 2.1.0)" // the Debian packages this is built against (install.sh checks both)
	// OpenID Connect is github.com/coreos/go-oidc 2.1.0 on top of it (openid.go).
	// messageBudget bounds everything one message does; below the profile's 15 s operation timeout.
	messageBudget = 13 * time.Second
)

var capabilities = []string{"proactive_refresh", "authorization_code", "restart", "custom_ca", "concurrency", "virtual_clock", "openid"}

func main() {
	serve(library[*client]{name: libraryName, version: libraryVersion, capabilities: capabilities, open: open})
}

// open makes reset's client; the library's process-wide state starts again with it.
func open(env *environment) (*client, error) {
	c, err := newClient(env)
	if err != nil {
		return nil, err
	}
	resetAuthStyleCache() // a new scenario starts as a new process would
	return c, nil
}

// answer answers what calls the library (serve.go answers the rest).
func (c *client) answer(m *message) answer {
	if m.Op == "identity" {
		return answer{"ok": true, "identity": c.signedIn()}
	}
	// Everything else calls the library, through a session made for this message's clock.
	ctx, cancel := context.WithTimeout(context.Background(), messageBudget)
	defer cancel()
	s := c.session(ctx, frameAt(*m.Now))
	switch m.Op {
	case "authorization_url", "sign_in_url":
		start := s.authorizationURL
		if m.Op == "sign_in_url" {
			start = s.signInURL
		}
		u, err := start()
		if err != nil {
			return answerFrom(failure(classify(err)))
		}
		return answer{"ok": true, "url": u}
	case "concurrently":
		return answer{"ok": true, "outcomes": s.concurrently(m.Operations)}
	}
	return answerFrom(s.run(m))
}

// concurrently starts every operation on a goroutine of its own, released together, all on the
// one session (token source and client), and waits for all.
func (s *session) concurrently(operations []message) []outcome {
	outcomes := make([]outcome, len(operations))
	start := make(chan struct{})
	var done sync.WaitGroup
	for i := range operations {
		done.Add(1)
		go func(i int) {
			defer done.Done()
			<-start
			outcomes[i] = s.run(&operations[i])
		}(i)
	}
	close(start)
	done.Wait()
	return outcomes
}

// run does one login, request, restart, restore_tokens, complete_authorization, complete_sign_in or
// userinfo; a
// panic from the library is reported as the crash it is (category unexpected).
func (s *session) run(m *message) (result outcome) {
	defer func() {
		if recovered := recover(); recovered != nil {
			log.Printf("%s panicked: %v\n%s", m.Op, recovered, debug.Stack())
			result = failure(panicError(recovered))
		}
	}()
	var err error
	switch m.Op {
	case "login":
		err = s.login(m.Grant)
		if err == nil {
			return success(200, nil)
		}
	case "request":
		var status int
		var body string
		status, body, err = s.request(m.Method, m.URL, m.Headers, m.Body)
		if err == nil {
			return success(status, &body)
		}
	case "complete_authorization":
		err = s.completeAuthorization(m.RedirectURL)
		if err == nil {
			return success(200, nil)
		}
	case "complete_sign_in":
		err = s.completeSignIn(m.RedirectURL)
		if err == nil {
			return success(200, nil)
		}
	case "userinfo":
		var claims string
		claims, err = s.userinfo()
		if err == nil {
			return success(200, &claims)
		}
	case "restart":
		err = s.client.restart()
		if err == nil {
			return outcome{OK: true}
		}
	case "restore_tokens":
		err = s.client.restoreTokens(m)
		if err == nil {
			return success(200, nil)
		}
	default:
		err = &clientError{Category: "unsupported", Message: "unknown operation " + m.Op}
	}
	e := classify(err)
	log.Printf("%s failed: %s (%s): %s", m.Op, e.Category, e.Type, e.Message)
	return failure(e)
}
