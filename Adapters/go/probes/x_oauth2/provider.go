// The throwaway provider every case starts: an httptest server on 127.0.0.1:0 whose handlers
// the case writes, recording and printing each request the library sends (method, origin,
// path, Authorization, form fields) and the status it was answered with. Credentials are
// printed in full: they are the probe's own, and where they go is the point.
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
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

const (
	clientID     = "probe-client"
	clientSecret = "probe-secret"
	username     = "alice"
	password     = "wonderland"
	redirectURI  = "http://127.0.0.1/callback" // the application's; nothing listens there
)

// request is what one server saw of one request.
type request struct {
	Method, Origin, Path string
	Authorization        string
	Form                 url.Values // the POST form, or the query of a GET
	Status               int
	At                   time.Time
}

// provider is one origin: its handlers by path, and every request it was sent.
type provider struct {
	name   string
	server *httptest.Server
	routes map[string]http.HandlerFunc

	mu       sync.Mutex
	requests []request
	inFlight int
	maxAtd   int // the most requests it was answering at once
}

// newProvider starts a plain-HTTP origin; newTLSProvider one speaking HTTPS with httptest's
// certificate (its Client() trusts it).
func newProvider(name string) *provider { return start(name, false) }

func newTLSProvider(name string) *provider { return start(name, true) }

func start(name string, tls bool) *provider {
	p := &provider{name: name, routes: map[string]http.HandlerFunc{}}
	handler := http.HandlerFunc(p.serve)
	if tls {
		p.server = httptest.NewTLSServer(handler)
	} else {
		p.server = httptest.NewServer(handler)
	}
	return p
}

func (p *provider) URL() string { return p.server.URL }

func (p *provider) handle(path string, h http.HandlerFunc) { p.routes[path] = h }

func (p *provider) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	form, _ := url.ParseQuery(string(body))
	if r.Method == http.MethodGet {
		form = r.URL.Query()
	}
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	p.mu.Lock()
	p.inFlight++
	if p.inFlight > p.maxAtd {
		p.maxAtd = p.inFlight
	}
	p.mu.Unlock()
	recorder := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	if h := p.routes[r.URL.Path]; h != nil {
		h(recorder, r)
	} else {
		http.NotFound(recorder, r)
	}
	seen := request{Method: r.Method, Origin: p.name, Path: r.URL.Path, Authorization: r.Header.Get("Authorization"),
		Form: form, Status: recorder.status, At: time.Now()}
	p.mu.Lock()
	p.inFlight--
	p.requests = append(p.requests, seen)
	p.mu.Unlock()
	say("  %s", seen)
}

func (r request) String() string {
	authorization := "no Authorization"
	if r.Authorization != "" {
		authorization = "Authorization: " + r.Authorization
		if strings.HasPrefix(r.Authorization, "Basic ") {
			authorization += " (" + basicUser(r.Authorization) + ")"
		}
	}
	return fmt.Sprintf("%s %s %s [%s] %s → %d", r.Origin, r.Method, r.Path, authorization, formText(r.Form), r.Status)
}

// basicUser decodes HTTP Basic credentials for the printout.
func basicUser(header string) string {
	request := &http.Request{Header: http.Header{"Authorization": {header}}}
	user, secret, ok := request.BasicAuth()
	if !ok {
		return "undecodable"
	}
	return user + ":" + secret
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(status int) {
	s.status = status
	s.ResponseWriter.WriteHeader(status)
}

// seen is what the provider was sent at path (every path when path is empty), optionally only
// one grant_type.
func (p *provider) seen(path, grant string) []request {
	p.mu.Lock()
	defer p.mu.Unlock()
	var matching []request
	for _, r := range p.requests {
		if (path == "" || r.Path == path) && (grant == "" || r.Form.Get("grant_type") == grant) {
			matching = append(matching, r)
		}
	}
	return matching
}

func (p *provider) mostAtOnce() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.maxAtd
}

// tokenJSON writes a token response.
func tokenJSON(w http.ResponseWriter, fields map[string]interface{}) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(fields)
}

// bearer is an ordinary token response.
func bearer(access, refresh string, expiresIn int) map[string]interface{} {
	fields := map[string]interface{}{"access_token": access, "token_type": "Bearer", "expires_in": expiresIn}
	if refresh != "" {
		fields["refresh_token"] = refresh
	}
	return fields
}

// oauthError writes an RFC 6749 §5.2 error response (401 for invalid_client, 400 otherwise).
func oauthError(w http.ResponseWriter, code string) {
	status := http.StatusBadRequest
	if code == "invalid_client" {
		status = http.StatusUnauthorized
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": "scripted " + code,
		"error_uri": "https://provider.example/errors/" + code})
}

// resourceOK is a protected resource that answers 200 to any request carrying a token.
func resourceOK(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") == "" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	io.WriteString(w, "ok")
}

// application is the Go application of x/oauth2's documentation: an oauth2.Config with the
// provider's endpoints, AuthStyle left at its zero value (AuthStyleAutoDetect), and its own
// *http.Client handed to the library under the oauth2.HTTPClient context key.
type application struct {
	config oauth2.Config
	ctx    context.Context
}

func newApplication(p *provider) *application {
	client := &http.Client{Timeout: 4 * time.Second}
	if p.server.TLS != nil {
		client = p.server.Client() // trusts httptest's certificate
		client.Timeout = 4 * time.Second
	}
	return &application{
		config: oauth2.Config{
			ClientID:     clientID,
			ClientSecret: clientSecret,
			Endpoint:     oauth2.Endpoint{AuthURL: p.URL() + "/authorize", TokenURL: p.URL() + "/token"},
			RedirectURL:  redirectURI,
		},
		ctx: context.WithValue(context.Background(), oauth2.HTTPClient, client),
	}
}

// signIn is the password grant, as PasswordCredentialsToken's documentation shows it.
func (a *application) signIn() (*oauth2.Token, error) {
	say("application: config.PasswordCredentialsToken(ctx, %q, %q)", username, password)
	token, err := a.config.PasswordCredentialsToken(a.ctx, username, password)
	if err != nil {
		say("application: PasswordCredentialsToken returned %s", describeError(err))
	} else {
		say("application: PasswordCredentialsToken returned a token: %s", describeToken(token))
	}
	return token, err
}

// signInWithCode is the code flow as the package's example writes it (ExampleConfig:
// AuthCodeURL, the user's visit, Exchange with the code of the redirect, its state checked as
// the documentation asks). The provider must answer /authorize (codeFlow).
func (a *application) signInWithCode() (*oauth2.Token, error) {
	state := "state-1"
	say("application: config.AuthCodeURL(%q)", state)
	back, err := authorize(a.config.AuthCodeURL(state))
	if err != nil {
		return nil, err
	}
	if back.Get("state") != state {
		return nil, errors.New("state mismatch")
	}
	say("application: config.Exchange(ctx, %q)", back.Get("code"))
	token, err := a.config.Exchange(a.ctx, back.Get("code"))
	if err != nil {
		say("application: Exchange returned %s", describeError(err))
	} else {
		say("application: Exchange returned a token: %s", describeToken(token))
	}
	return token, err
}

// codeFlow gives p an authorization endpoint that sends the browser back with code-1.
func codeFlow(p *provider) {
	p.handle("/authorize", redirectWith(url.Values{"code": {"code-1"}}))
}

// call is the application calling the resource through the library's *http.Client
// (config.Client: oauth2.Transport over the token source).
func (a *application) call(client *http.Client, target string) (int, error) {
	response, err := client.Get(target)
	if err != nil {
		say("application: client.Get(%s) returned %s", target, describeError(err))
		return 0, err
	}
	defer response.Body.Close()
	io.Copy(io.Discard, response.Body)
	say("application: client.Get(%s) returned %s", target, response.Status)
	return response.StatusCode, nil
}

// expired is the application's token as it is once its lifetime has passed: the same token,
// its Expiry a minute ago (the probe never waits for a real expiry).
func expired(t *oauth2.Token) *oauth2.Token {
	stale := *t
	stale.Expiry = time.Now().Add(-time.Minute)
	return &stale
}

func describeToken(t *oauth2.Token) string {
	if t == nil {
		return "nil"
	}
	expiry := "zero"
	if !t.Expiry.IsZero() {
		expiry = fmt.Sprintf("now%+ds", int(time.Until(t.Expiry).Round(time.Second)/time.Second))
	}
	return fmt.Sprintf("access_token=%s token_type=%q refresh_token=%s Expiry=%s Valid()=%v",
		t.AccessToken, t.TokenType, t.RefreshToken, expiry, t.Valid())
}

// describeError is the error as the application gets it: its type (and the types it wraps)
// and its text.
func describeError(err error) string {
	types := fmt.Sprintf("%T", err)
	for inner := unwrap(err); inner != nil; inner = unwrap(inner) {
		types += " wrapping " + fmt.Sprintf("%T", inner)
	}
	return fmt.Sprintf("an error (%s): %q", types, err.Error())
}

func unwrap(err error) error {
	if u, ok := err.(interface{ Unwrap() error }); ok {
		return u.Unwrap()
	}
	return nil
}
