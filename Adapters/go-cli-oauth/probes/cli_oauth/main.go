// Probes of what Adapters/go-cli-oauth/cli-oauth.yaml claims about github.com/cli/oauth 1.0.1,
// without the harness: each case starts a throwaway HTTP server on 127.0.0.1 (httptest), runs the
// device flow as the library's example has an application run it (device.RequestCode, then
// device.Wait with an *http.Client, on the real clock, with the library's own poller),
// prints every request the library sent and what it returned, and ends with
// "confirmed: <claim>" (exit 0) when the library does what the claim says, or
// "not confirmed: <what happened>" (exit 1).
//
//	bin/probe-cli-oauth <case>     (with no case: the list)
//
// probes/probe.go of Adapters/go (built beside this file by install.sh) holds the cases' table,
// main and the checks.
//
// The server gives interval 0 (the library's timer then fires at once) wherever the pacing is
// not the point, and 1 s where it is, so that every case ends within a few seconds.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/cli/oauth/api"
	"github.com/cli/oauth/device"
)

const clientID = "probe-client"

func init() {
	register("slow-down-ends-polling",
		"device.Wait ends the polling at the first slow_down and returns it to the application as an *api.Error (Code slow_down) instead of polling on 5 s more slowly (device_flow.go:167-173)",
		slowDownEndsPolling)
	register("server-error-ends-polling",
		"device.Wait ends the polling at the first 5xx answer and returns it to the application as an *api.Error (HTTP 503, no Code): a transient failure loses the device authorization (device_flow.go:167-173)",
		serverErrorEndsPolling)
	register("interval-required",
		"device.RequestCode fails when the device authorization response has no interval (strconv.Atoi of \"\", device_flow.go:84-87) instead of polling every 5 s (RFC 8628 §3.2): the sign-in ends before any poll",
		intervalRequired)
	register("expiry-surfaced-as-context-error",
		"device.Wait stops polling once expires_in has passed on its own clock, but returns context.DeadlineExceeded (its poller's context, poller.go:16), neither expired_token nor its own ErrTimeout (declared at device_flow.go:31-32, never returned)",
		expirySurfacedAsContextError)
	register("token-type-accepted",
		"device.Wait returns a token whatever its token_type (\"mac\", \"N_A\", \"DPoP\"): FormResponse.AccessToken (access_token.go:16-24) copies token_type into Type and checks nothing, so the application is told of no refusal",
		tokenTypeAccepted)
	register("tokens-only",
		"device.Wait hands the application access_token, refresh_token, token_type and scope only (api.AccessToken, access_token.go:4-13): the token's lifetime (expires_in) is dropped, so nothing the library returns says when to refresh",
		tokensOnly)
}

// answer is one HTTP answer of the throwaway server.
type answer struct {
	status      int
	contentType string
	body        string
}

func jsonAnswer(status int, members map[string]interface{}) answer {
	body, _ := json.Marshal(members)
	return answer{status: status, contentType: "application/json", body: string(body)}
}

// server is the provider: /device/code answers code, /token answers polls in turn (the last one
// again for any later poll). It prints and counts what the library sent.
type server struct {
	*httptest.Server
	started time.Time
	mu      sync.Mutex
	polls   []time.Duration // when each poll came, since the server started
}

func newServer(code answer, polls ...answer) *server {
	s := &server{started: time.Now()}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		form, _ := url.ParseQuery(string(body))
		var a answer
		switch r.URL.Path {
		case "/device/code":
			a = code
		case "/token":
			s.mu.Lock()
			n := len(s.polls)
			s.polls = append(s.polls, time.Since(s.started))
			s.mu.Unlock()
			if n >= len(polls) {
				n = len(polls) - 1
			}
			a = polls[n]
		default:
			a = answer{status: 404, contentType: "text/plain", body: "not found"}
		}
		fmt.Printf("  t=%.1fs %s %s %s -> %d %s\n", time.Since(s.started).Seconds(), r.Method, r.URL.Path, formText(form), a.status, a.body)
		w.Header().Set("Content-Type", a.contentType)
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.body)
	}))
	return s
}

func (s *server) pollCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.polls)
}

// codeAnswer is a device authorization response; interval "" leaves interval out.
func codeAnswer(interval, expiresIn string) answer {
	members := map[string]interface{}{"device_code": "dc-1", "user_code": "ABCD-EFGH",
		"verification_uri": "http://127.0.0.1/device"}
	if interval != "" {
		members["interval"] = json.Number(interval)
	}
	members["expires_in"] = json.Number(expiresIn)
	return jsonAnswer(200, members)
}

func pending() answer {
	return jsonAnswer(400, map[string]interface{}{"error": "authorization_pending"})
}

func tokenAnswer(members map[string]interface{}) answer {
	base := map[string]interface{}{"access_token": "at-1", "token_type": "Bearer"}
	for k, v := range members {
		base[k] = v
	}
	return jsonAnswer(200, base)
}

// signIn runs the device flow as device/examples_test.go does: RequestCode, show the code, Wait.
func signIn(s *server) (*api.AccessToken, error) {
	httpClient := &http.Client{Timeout: 5 * time.Second}
	code, err := device.RequestCode(httpClient, s.URL+"/device/code", clientID, []string{"repo"})
	if err != nil {
		fmt.Printf("  device.RequestCode returned error %T: %v\n", err, err)
		return nil, err
	}
	fmt.Printf("  device.RequestCode: user_code %s at %s, interval %d, expires_in %d\n", code.UserCode, code.VerificationURI, code.Interval, code.ExpiresIn)
	token, err := device.Wait(context.Background(), httpClient, s.URL+"/token", device.WaitOptions{ClientID: clientID, DeviceCode: code})
	if err != nil {
		fmt.Printf("  device.Wait returned error %T: %v\n", err, err)
		return nil, err
	}
	fmt.Printf("  device.Wait returned %+v\n", *token)
	return token, nil
}

func slowDownEndsPolling() []string {
	s := newServer(codeAnswer("1", "60"), pending(), jsonAnswer(400, map[string]interface{}{"error": "slow_down"}), tokenAnswer(nil))
	defer s.Close()
	var c checks
	_, err := signIn(s)
	var apiError *api.Error
	c.expect(errors.As(err, &apiError) && apiError.Code == "slow_down", "the application gets an *api.Error with Code slow_down")
	time.Sleep(1500 * time.Millisecond) // time enough for a poll the loop might still send
	c.expect(s.pollCount() == 2, "no poll after the slow_down (polls: %d)", s.pollCount())
	return c
}

func serverErrorEndsPolling() []string {
	s := newServer(codeAnswer("0", "60"), pending(), answer{status: 503, contentType: "text/plain", body: "busy"}, tokenAnswer(nil))
	defer s.Close()
	var c checks
	_, err := signIn(s)
	var apiError *api.Error
	c.expect(errors.As(err, &apiError) && apiError.ResponseCode == 503 && apiError.Code == "", "the application gets an *api.Error with ResponseCode 503 and no Code")
	time.Sleep(500 * time.Millisecond)
	c.expect(s.pollCount() == 2, "no poll after the 503 (polls: %d)", s.pollCount())
	return c
}

func intervalRequired() []string {
	s := newServer(codeAnswer("", "60"), tokenAnswer(nil))
	defer s.Close()
	var c checks
	_, err := signIn(s)
	c.expect(err != nil && strings.Contains(err.Error(), `could not parse interval=""`), "the sign-in fails: could not parse interval=\"\"")
	c.expect(s.pollCount() == 0, "no poll (polls: %d)", s.pollCount())
	return c
}

func expirySurfacedAsContextError() []string {
	s := newServer(codeAnswer("1", "2"), pending())
	defer s.Close()
	var c checks
	start := time.Now()
	_, err := signIn(s)
	elapsed := time.Since(start)
	c.expect(errors.Is(err, context.DeadlineExceeded), "the error is context.DeadlineExceeded")
	c.expect(!errors.Is(err, device.ErrTimeout), "the error is not device.ErrTimeout")
	var apiError *api.Error
	c.expect(!errors.As(err, &apiError), "the error is no *api.Error (no expired_token code)")
	c.expect(elapsed >= 2*time.Second && elapsed < 4*time.Second, "the polling stopped once expires_in (2 s) had passed (after %.1fs, %d polls)", elapsed.Seconds(), s.pollCount())
	return c
}

func tokenTypeAccepted() []string {
	var c checks
	for _, tokenType := range []string{"mac", "N_A", "DPoP"} {
		s := newServer(codeAnswer("0", "60"), tokenAnswer(map[string]interface{}{"token_type": tokenType}))
		token, err := signIn(s)
		s.Close()
		c.expect(err == nil && token != nil && token.Token == "at-1" && token.Type == tokenType, "token_type %q: the token is returned, Type %q, no error", tokenType, tokenType)
	}
	return c
}

func tokensOnly() []string {
	s := newServer(codeAnswer("0", "60"), tokenAnswer(map[string]interface{}{"refresh_token": "rt-1", "expires_in": 60, "scope": "repo"}))
	defer s.Close()
	var c checks
	token, err := signIn(s)
	c.expect(err == nil && token != nil, "the sign-in succeeds")
	fields := []string{}
	kind := reflect.TypeOf(api.AccessToken{})
	for i := 0; i < kind.NumField(); i++ {
		fields = append(fields, kind.Field(i).Name)
	}
	fmt.Printf("  api.AccessToken's fields: %s\n", strings.Join(fields, ", "))
	c.expect(strings.Join(fields, ",") == "Token,RefreshToken,Type,Scope", "what the application gets has no field for the lifetime (expires_in 60)")
	if token != nil {
		c.expect(!strings.Contains(fmt.Sprintf("%+v", *token), "60"), "expires_in 60 appears nowhere in it")
	}
	return c
}
