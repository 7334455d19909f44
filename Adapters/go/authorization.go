// The authorization code flow as x/oauth2 0.3.0 leaves it to the application: AuthCodeURL and
// Exchange from the library; the state, the PKCE verifier and reading the redirect are the
// application's, done exactly as the library's documentation tells it to. OpenID Connect's
// sign-in (openid.go) is the same flow with a nonce and go-oidc's checks after Exchange.
package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/url"

	"golang.org/x/oauth2"
)

// pendingAuthorization is what the application remembers between sending the user to the
// provider and the redirect back: the state to compare, the PKCE verifier to redeem with and,
// for a sign-in, the nonce the ID token must carry.
type pendingAuthorization struct {
	state    string
	verifier string
	nonce    string // empty unless this is an OpenID Connect sign-in
}

// authorizationURL is the first half of the code flow.
func (s *session) authorizationURL() (string, error) {
	return s.startAuthorization(&s.client.config, "")
}

// startAuthorization remembers a new pending request and returns its URL. x/oauth2 0.3.0 takes
// the state from the application ("You must always provide a non-empty string and validate that
// it matches the state query parameter on your redirect callback") and PKCE as AuthCodeOptions
// ("It can also be used to pass the PKCE challenge"): the application makes both, as its
// documentation says. A sign-in adds its nonce (extra: go-oidc's oidc.Nonce).
func (s *session) startAuthorization(config *oauth2.Config, nonce string, extra ...oauth2.AuthCodeOption) (string, error) {
	state, err := randomString()
	if err != nil {
		return "", err
	}
	verifier, err := randomString()
	if err != nil {
		return "", err
	}
	digest := sha256.Sum256([]byte(verifier))
	s.client.mu.Lock()
	s.client.pending = &pendingAuthorization{state: state, verifier: verifier, nonce: nonce}
	s.client.mu.Unlock()
	options := append([]oauth2.AuthCodeOption{
		oauth2.SetAuthURLParam("code_challenge", base64.RawURLEncoding.EncodeToString(digest[:])),
		oauth2.SetAuthURLParam("code_challenge_method", "S256"),
	}, extra...)
	return config.AuthCodeURL(state, options...), nil
}

// completeAuthorization is the second half: the code redeemed, the token kept.
func (s *session) completeAuthorization(redirect string) error {
	token, _, err := s.redeem(&s.client.config, redirect)
	if err != nil {
		return err
	}
	s.client.keep("authorization_code", token, s.frame, nil)
	return nil
}

// redeem is the redirect callback as x/oauth2's documentation writes it: "The code will be in the
// *http.Request.FormValue("code"). Before calling Exchange, be sure to validate
// FormValue("state")." Nothing else of the response is read: the library has no handling of
// error= or iss, and the adapter adds none. It returns the token unkept, and the request it
// answered.
func (s *session) redeem(config *oauth2.Config, redirect string) (*oauth2.Token, *pendingAuthorization, error) {
	parsed, err := url.Parse(redirect)
	if err != nil {
		return nil, nil, err
	}
	query := parsed.Query()
	s.client.mu.Lock()
	pending := s.client.pending
	s.client.pending = nil // a state is good for one response
	s.client.mu.Unlock()
	if pending == nil || query.Get("state") != pending.state {
		return nil, nil, &clientError{Category: "protocol", Type: "application.stateMismatch",
			Message: "the redirect's state is not the one this application sent"}
	}
	token, err := config.Exchange(s.ctx, query.Get("code"),
		oauth2.SetAuthURLParam("code_verifier", pending.verifier))
	return token, pending, err
}

// randomString is 32 random bytes, base64url without padding (43 characters).
func randomString() (string, error) {
	buffer := make([]byte, 32)
	if _, err := io.ReadFull(rand.Reader, buffer); err != nil {
		return "", errors.New("no randomness: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(buffer), nil
}
