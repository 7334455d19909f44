// Cause: what github.com/coreos/go-oidc 2.1.0 checks of an ID token, and what it leaves
// unchecked. IDTokenVerifier.Verify (verify.go:199-321) checks iss (243-252), that aud contains
// the client id and nothing more ("This check DOES NOT ensure that the ClientID is the party to
// which the ID Token was issued", 254-265), exp and nbf (267-288), the algorithm (299-306) and the
// signature with the provider's RemoteKeySet, the keys of jwks_uri only (310, jwks.go:104-141;
// its algorithm constants are RS*, ES*, PS*, jose.go). iat is parsed into IssuedAt (235) and
// never compared, sub is never required, azp never read. Provider.UserInfo (oidc.go:180-215)
// returns whatever claims the endpoint sends. Its README and examples (example/idtoken,
// example/nonce) verify the ID token of Exchange only; a refresh happens inside
// oauth2.Transport, which sends the new access token at once (transport.go:45-55).
//
// The application is go-oidc's README: oidc.NewProvider, provider.Verifier(&oidc.Config{
// ClientID}), an oauth2.Config with provider.Endpoint() and scope openid, AuthCodeURL with
// oidc.Nonce, Exchange, token.Extra("id_token"), verifier.Verify, and the nonce compared.
package main

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	oidc "github.com/coreos/go-oidc"
	"golang.org/x/oauth2"
	jose "gopkg.in/square/go-jose.v2"
)

func init() {
	register("hs256-id-token-refused",
		`go-oidc verifies signatures only with the keys of jwks_uri and knows no client-secret key: a correct HS256 ID token, HS256 being the registered algorithm, fails "failed to verify signature: failed to verify id token signature"`,
		hs256Refused)
	acceptedIDToken("azp-unchecked",
		"Verify never reads azp: an ID token naming another-app as its authorized party is accepted and its access token used",
		func(claims map[string]interface{}) { claims["azp"] = "another-app" }, true)
	acceptedIDToken("several-audiences-unchecked",
		"Verify only checks that aud contains the client id: an ID token for the client and an untrusted second audience, without azp, is accepted and its access token used",
		func(claims map[string]interface{}) { claims["aud"] = []string{clientID, "untrusted-app"} }, true)
	acceptedIDToken("iat-in-future",
		"Verify parses iat into IssuedAt but never checks it: an ID token issued an hour ahead is accepted",
		func(claims map[string]interface{}) { claims["iat"] = time.Now().Add(time.Hour).Unix() }, false)
	acceptedIDToken("iat-beyond-skew",
		"Verify parses iat into IssuedAt but never checks it: an ID token issued 30 s ahead (beyond a 0 s skew) is accepted and its access token used",
		func(claims map[string]interface{}) { claims["iat"] = time.Now().Add(30 * time.Second).Unix() }, true)
	acceptedIDToken("iat-missing",
		"Verify never checks iat: an ID token without one is accepted",
		func(claims map[string]interface{}) { delete(claims, "iat") }, false)
	acceptedIDToken("sub-missing",
		"Verify does not require sub: an ID token without one is accepted, and the signed-in user has an empty Subject",
		func(claims map[string]interface{}) { delete(claims, "sub") }, false)
	register("refresh-id-token-unverified",
		"x/oauth2's token source refreshes inside oauth2.Transport and the new access token goes out in the same call, before the application is handed anything: an id_token in the refresh response naming another sub or another iss is never seen, and the signed-in user stays",
		refreshIDTokenUnverified)
	register("userinfo-sub-unchecked",
		"provider.UserInfo returns the claims the endpoint sends: a userinfo sub other than the ID token's comes back without an error",
		userinfoSubUnchecked)
}

// openIDProvider is a provider with discovery, a key set, an authorization endpoint that
// remembers the nonce, and a token endpoint whose ID tokens the case shapes.
type openIDProvider struct {
	*provider
	key       *rsa.PrivateKey
	algorithm jose.SignatureAlgorithm
	mu        sync.Mutex
	nonce     string
	// idToken shapes the claims of the ID token of each token response, by grant.
	idToken func(grant string, claims map[string]interface{})
	// userinfo is the userinfo endpoint's answer.
	userinfo map[string]interface{}
}

func newOpenIDProvider() *openIDProvider {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	o := &openIDProvider{provider: newProvider("provider"), key: key, algorithm: jose.RS256,
		idToken: func(string, map[string]interface{}) {}}
	issuer := o.URL()
	o.handle("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]interface{}{
			"issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
			"jwks_uri": issuer + "/jwks", "userinfo_endpoint": issuer + "/userinfo",
			"id_token_signing_alg_values_supported": []string{string(o.algorithm)},
			"response_types_supported":              []string{"code"}, "subject_types_supported": []string{"public"},
		})
	})
	o.handle("/jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &key.PublicKey, KeyID: "key-1", Algorithm: string(jose.RS256), Use: "sig"}}})
	})
	o.handle("/authorize", func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.nonce = r.URL.Query().Get("nonce")
		o.mu.Unlock()
		http.Redirect(w, r, r.URL.Query().Get("redirect_uri")+"?code=code-1&state="+r.URL.Query().Get("state"), http.StatusFound)
	})
	issued := 0
	o.handle("/token", func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		issued++
		n := issued
		nonce := o.nonce
		o.mu.Unlock()
		grant := r.FormValue("grant_type")
		claims := map[string]interface{}{"iss": issuer, "sub": "alice", "aud": clientID, "nonce": nonce,
			"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()}
		if grant == "refresh_token" {
			delete(claims, "nonce")
		}
		o.idToken(grant, claims)
		fields := bearer("at-"+string(rune('0'+n)), "rt-1", 3600)
		fields["id_token"] = o.sign(claims)
		tokenJSON(w, fields)
	})
	o.handle("/userinfo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(o.userinfo)
	})
	o.handle("/resource", resourceOK)
	return o
}

// sign makes a compact JWS of claims: RS256 with the published key, or HS256 with the client
// secret (OIDC Core §10.1's symmetric key).
func (o *openIDProvider) sign(claims map[string]interface{}) string {
	key := jose.SigningKey{Algorithm: jose.RS256, Key: o.key}
	options := (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "key-1")
	if o.algorithm == jose.HS256 {
		key = jose.SigningKey{Algorithm: jose.HS256, Key: []byte(clientSecret)}
		options = (&jose.SignerOptions{}).WithType("JWT")
	}
	signer, err := jose.NewSigner(key, options)
	if err != nil {
		panic(err)
	}
	payload, _ := json.Marshal(claims)
	signed, err := signer.Sign(payload)
	if err != nil {
		panic(err)
	}
	compact, _ := signed.CompactSerialize()
	say("provider: id_token %s %s", o.algorithm, payload)
	return compact
}

// openIDApplication is the application of go-oidc's README, signed in or not.
type openIDApplication struct {
	ctx      context.Context
	provider *oidc.Provider
	config   oauth2.Config
	verifier *oidc.IDTokenVerifier
}

func newOpenIDApplication(o *openIDProvider) (*openIDApplication, error) {
	ctx := oidc.ClientContext(context.Background(), &http.Client{Timeout: 4 * time.Second})
	say("application: oidc.NewProvider(ctx, %q)", o.URL())
	provider, err := oidc.NewProvider(ctx, o.URL())
	if err != nil {
		return nil, err
	}
	return &openIDApplication{
		ctx:      ctx,
		provider: provider,
		config: oauth2.Config{ClientID: clientID, ClientSecret: clientSecret, Endpoint: provider.Endpoint(),
			RedirectURL: redirectURI, Scopes: []string{oidc.ScopeOpenID}},
		verifier: provider.Verifier(&oidc.Config{ClientID: clientID, SupportedSigningAlgs: []string{string(o.algorithm)}}),
	}, nil
}

// signIn is the code flow with a nonce, Exchange, Verify and the nonce comparison of go-oidc's
// nonce example. It returns the tokens and the verified ID token, or why the sign-in failed.
func (a *openIDApplication) signIn() (*oauth2.Token, *oidc.IDToken, error) {
	state, nonce := "state-1", "nonce-1"
	say("application: config.AuthCodeURL(%q, oidc.Nonce(%q))", state, nonce)
	back, err := authorize(a.config.AuthCodeURL(state, oidc.Nonce(nonce)))
	if err != nil {
		return nil, nil, err
	}
	if back.Get("state") != state {
		return nil, nil, errString("state did not match")
	}
	say("application: config.Exchange(ctx, %q)", back.Get("code"))
	token, err := a.config.Exchange(a.ctx, back.Get("code"))
	if err != nil {
		return nil, nil, err
	}
	raw, ok := token.Extra("id_token").(string)
	if !ok {
		return nil, nil, errString("No id_token field in oauth2 token.")
	}
	say("application: verifier.Verify(ctx, rawIDToken)")
	idToken, err := a.verifier.Verify(a.ctx, raw)
	if err != nil {
		say("application: Verify returned %s", describeError(err))
		return nil, nil, err
	}
	if idToken.Nonce != nonce {
		return nil, nil, errString("Invalid ID Token nonce")
	}
	say("application: Verify accepted it: Issuer=%q Subject=%q Audience=%q IssuedAt=%v", idToken.Issuer,
		idToken.Subject, idToken.Audience, idToken.IssuedAt.Unix())
	return token, idToken, nil
}

type errString string

func (e errString) Error() string { return string(e) }

func hs256Refused() []string {
	var c checks
	o := newOpenIDProvider()
	o.algorithm = jose.HS256
	app, err := newOpenIDApplication(o)
	if err != nil {
		c.expect(false, "discovery succeeded (%v)", err)
		return c
	}
	_, _, err = app.signIn()
	c.expect(err != nil && strings.Contains(err.Error(), "failed to verify signature: failed to verify id token signature"),
		`Verify refused the HS256 ID token: "failed to verify signature: failed to verify id token signature"`)
	c.expect(len(o.seen("/jwks", "")) > 0, "after looking for its key in jwks_uri")
	return c
}

// acceptedIDToken registers a case where the ID token of the sign-in is shaped by change and
// Verify accepts it; used, the application then calls the resource with its access token.
func acceptedIDToken(name, claim string, change func(map[string]interface{}), used bool) {
	register(name, claim, func() []string {
		var c checks
		o := newOpenIDProvider()
		o.idToken = func(grant string, claims map[string]interface{}) { change(claims) }
		app, err := newOpenIDApplication(o)
		if err != nil {
			c.expect(false, "discovery succeeded (%v)", err)
			return c
		}
		token, idToken, err := app.signIn()
		c.expect(err == nil, "the sign-in succeeded: Verify accepted the ID token")
		if err != nil {
			return c
		}
		if name == "sub-missing" {
			c.expect(idToken.Subject == "", "the signed-in user's Subject is empty")
		}
		if used {
			say("application: client := config.Client(ctx, token)")
			status, err := (&application{config: app.config, ctx: app.ctx}).call(app.config.Client(app.ctx, token), o.URL()+"/resource")
			c.expect(err == nil && status == 200, "its access token was used at the resource")
		}
		return c
	})
}

func refreshIDTokenUnverified() []string {
	var c checks
	for _, variant := range []string{"sub", "iss"} {
		o := newOpenIDProvider()
		o.idToken = func(grant string, claims map[string]interface{}) {
			if grant != "refresh_token" {
				return
			}
			if variant == "sub" {
				claims["sub"] = "someone-else"
			} else {
				claims["iss"] = "https://another-issuer.example"
			}
		}
		say("-- the refresh response's id_token names another %s", variant)
		app, err := newOpenIDApplication(o)
		if err != nil {
			c.expect(false, "discovery succeeded (%v)", err)
			return c
		}
		token, idToken, err := app.signIn()
		if err != nil {
			c.expect(false, "the sign-in succeeded (%v)", err)
			continue
		}
		token = expired(token)
		say("application: the access token expired; client := config.Client(ctx, token)")
		status, err := (&application{config: app.config, ctx: app.ctx}).call(app.config.Client(app.ctx, token), o.URL()+"/resource")
		refreshed := o.seen("/token", "refresh_token")
		used := o.seen("/resource", "")
		c.expect(len(refreshed) == 1, "the call refreshed")
		c.expect(err == nil && status == 200 && len(used) == 1 && used[0].Authorization == "Bearer at-2",
			"and the refresh response's access token at-2 went to the resource in that same call")
		say("application: its signed-in user is still Subject=%q Issuer=%q", idToken.Subject, idToken.Issuer)
	}
	return c
}

func userinfoSubUnchecked() []string {
	var c checks
	o := newOpenIDProvider()
	o.userinfo = map[string]interface{}{"sub": "someone-else", "name": "Someone Else"}
	app, err := newOpenIDApplication(o)
	if err != nil {
		c.expect(false, "discovery succeeded (%v)", err)
		return c
	}
	token, idToken, err := app.signIn()
	if err != nil {
		c.expect(false, "the sign-in succeeded (%v)", err)
		return c
	}
	say("application: provider.UserInfo(ctx, oauth2.StaticTokenSource(token))")
	info, err := app.provider.UserInfo(app.ctx, oauth2.StaticTokenSource(token))
	if err != nil {
		say("application: UserInfo returned %s", describeError(err))
	} else {
		say("application: UserInfo returned Subject=%q", info.Subject)
	}
	c.expect(err == nil && info.Subject == "someone-else" && idToken.Subject == "alice",
		"UserInfo returned sub someone-else without an error, the ID token's sub being alice")
	return c
}
