// OpenID Connect sign-in with github.com/coreos/go-oidc 2.1.0 (Debian's
// golang-github-coreos-go-oidc-dev, on gopkg.in/square/go-jose.v2), written as its README and
// examples write an application: oidc.NewProvider (discovery, which checks the document's issuer),
// provider.Endpoint() and scope openid for the oauth2.Config, oidc.Nonce in AuthCodeURL,
// verifier.Verify on Exchange's id_token, then the two checks go-oidc leaves to the caller: the
// nonce ("Verify does NOT do nonce validation, which is the callers responsibility"; the nonce
// example compares idToken.Nonce) and at_hash when present (VerifyAccessToken: "It is the
// caller's responsibility to ensure that the optional access token hash is present"). Userinfo
// is provider.UserInfo. Nothing else is checked: go-oidc's documentation asks the application
// for nothing more (no userinfo sub comparison, no check of a refreshed token's id_token).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/url"
	"strings"
	"time"

	oidc "github.com/coreos/go-oidc"
	"golang.org/x/oauth2"
)

// openIDRegistration is what the application is configured with for OpenID Connect.
type openIDRegistration struct {
	issuer           string // what discovery must confirm (NewProvider compares it)
	configurationURL string // <issuer>/.well-known/openid-configuration, which NewProvider builds itself
	signingAlg       string // id_token_signed_response_alg: the one algorithm Verify accepts
}

// identity is the user the application holds as signed in: the iss and sub of the ID token it
// accepted last.
type identity struct {
	Issuer  string `json:"iss"`
	Subject string `json:"sub"`
}

// discovered is the application's oidc.Provider, made once (go-oidc: the RemoteKeySet behind it
// "is a long lived verifier that caches keys"; reuse it). Its context is kept by the key set for
// every later JWKS fetch ("behavior is undefined once the Provider's context is canceled"), so
// it is not the message's but one that lives with the client, carrying the application's
// *http.Client (ca_file, timeouts) as go-oidc's ClientContext documents.
//
// The key set reads the real clock (NewProvider gives it time.Now; Config.Now reaches only
// Verify's exp and nbf): cached keys are tried first whatever their age, and a token none of them
// verifies causes a refetch once the cache is within 30 s of its expiry, the fetch's real instant
// plus any Cache-Control max-age. The provider sends none, so that is every such token; a max-age
// would age on the real clock, unmoved by the scenario's advance steps.
func (c *client) discovered() (*oidc.Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.provider != nil {
		return c.provider, nil
	}
	if want := strings.TrimSuffix(c.openid.issuer, "/") + "/.well-known/openid-configuration"; c.openid.configurationURL != want {
		log.Printf("openid_configuration_url %s is not where go-oidc looks (%s)", c.openid.configurationURL, want)
	}
	provider, err := oidc.NewProvider(oidc.ClientContext(context.Background(), c.http), c.openid.issuer)
	if err != nil {
		return nil, err
	}
	c.provider = provider
	return provider, nil
}

// signInConfig is the oauth2.Config of go-oidc's README: the discovered endpoints, scope openid.
func (c *client) signInConfig(provider *oidc.Provider) *oauth2.Config {
	config := c.config
	config.Endpoint = provider.Endpoint()
	config.Scopes = []string{oidc.ScopeOpenID}
	return &config
}

// signInURL discovers the provider, then starts a code flow with a fresh nonce.
func (s *session) signInURL() (string, error) {
	provider, err := s.client.discovered()
	if err != nil {
		return "", err
	}
	nonce, err := randomString()
	if err != nil {
		return "", err
	}
	return s.startAuthorization(s.client.signInConfig(provider), nonce, oidc.Nonce(nonce))
}

// completeSignIn redeems the code and keeps the tokens only once the ID token is accepted.
func (s *session) completeSignIn(redirect string) error {
	c := s.client
	provider, err := c.discovered()
	if err != nil {
		return err
	}
	token, pending, err := s.redeem(c.signInConfig(provider), redirect)
	if err != nil {
		return err
	}
	if pending.nonce == "" {
		return refused("application.noSignInPending", errors.New("the redirect answers an authorization request, not a sign-in"))
	}
	rawIDToken, ok := token.Extra("id_token").(string)
	if !ok {
		return refused("application.missingIDToken", errors.New("No id_token field in oauth2 token.")) // the examples' words
	}
	verifier := provider.Verifier(&oidc.Config{
		ClientID:             c.config.ClientID,
		SupportedSigningAlgs: []string{c.openid.signingAlg},
		// Expiry (and nbf) are judged on the scenario's clock, frozen at this message's `now`.
		Now: func() time.Time { return s.frame.virtualNow },
	})
	idToken, err := verifier.Verify(s.ctx, rawIDToken)
	if err != nil {
		return refused(fmt.Sprintf("%T", err), err)
	}
	if idToken.Nonce != pending.nonce {
		return refused("application.nonceMismatch", errors.New("Invalid ID Token nonce")) // the nonce example's words
	}
	if idToken.AccessTokenHash != "" {
		if err := idToken.VerifyAccessToken(token.AccessToken); err != nil {
			return refused(fmt.Sprintf("%T", err), err)
		}
	}
	log.Printf("ID token accepted: iss %s, sub %s", idToken.Issuer, idToken.Subject)
	c.keep("authorization_code", token, s.frame, &identity{Issuer: idToken.Issuer, Subject: idToken.Subject})
	return nil
}

// refused is an ID token the application refuses, with go-oidc's (or its own) reason.
func refused(kind string, err error) *clientError {
	return &clientError{Category: "id_token", Type: kind, Message: err.Error()}
}

// userinfo is provider.UserInfo with the application's token source (session.go: the one that
// attaches, refreshes and saves the held token), answering the claims as JSON text. Its sub is
// not compared with the ID token's: go-oidc 2.1 does not, and its userinfo example does not either.
func (s *session) userinfo() (string, error) {
	provider, err := s.client.discovered()
	if err != nil {
		return "", err
	}
	info, err := provider.UserInfo(s.ctx, s.source)
	if err != nil {
		return "", userinfoError(err)
	}
	var claims json.RawMessage
	if err := info.Claims(&claims); err != nil {
		return "", userinfoError(err)
	}
	return string(claims), nil
}

// userinfoError: a failed connection or a failed token source is what it is (go-oidc returns
// the first as it is and words the second "oidc: get access token: …"); anything else (a status
// other than 200, a body that is not JSON) is a refused userinfo response.
func userinfoError(err error) *clientError {
	var urlErr *url.Error
	if errors.As(err, &urlErr) || strings.HasPrefix(err.Error(), "oidc: get access token: ") {
		return classify(err)
	}
	return &clientError{Category: "userinfo", Type: fmt.Sprintf("%T", err), Message: err.Error()}
}

// signedIn is the identity message's answer: {iss, sub}, or nil when nobody is signed in.
func (c *client) signedIn() interface{} {
	if who := c.store.current().Identity; who != nil {
		return who
	}
	return nil
}
