// The scenario's application and its golang.org/x/oauth2 calls, made as a Go application makes
// them: oauth2.Config for the password grant and refreshing (TokenSource, NewClient),
// clientcredentials.Config for that grant, the *http.Client passed in the context under
// oauth2.HTTPClient. The code flow is in authorization.go, the per-message token source in
// session.go.
package main

import (
	"net/http"
	"sync"

	oidc "github.com/coreos/go-oidc"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// client is one scenario's application: its configuration, its HTTP client and its token.
type client struct {
	config      oauth2.Config
	credentials clientcredentials.Config
	http        *http.Client
	store       *tokenStore
	username    string
	password    string
	openid      openIDRegistration

	mu       sync.Mutex
	pending  *pendingAuthorization // the authorization request in flight, if any
	provider *oidc.Provider        // discovered at the first sign-in (openid.go); gone at restart
}

func newClient(env *environment) (*client, error) {
	httpClient, err := newHTTPClient(env.CAFile)
	if err != nil {
		return nil, err
	}
	// AuthStyle left at its zero value, AuthStyleAutoDetect, as applications leave it.
	return &client{
		config: oauth2.Config{
			ClientID:     env.ClientID,
			ClientSecret: env.ClientSecret,
			Endpoint:     oauth2.Endpoint{AuthURL: env.AuthorizationEndpoint, TokenURL: env.TokenEndpoint},
			RedirectURL:  env.RedirectURI,
		},
		credentials: clientcredentials.Config{
			ClientID:     env.ClientID,
			ClientSecret: env.ClientSecret,
			TokenURL:     env.TokenEndpoint,
		},
		http:     httpClient,
		store:    newTokenStore(env.StorageDir),
		username: env.Username,
		password: env.Password,
		openid: openIDRegistration{
			issuer:           env.Issuer,
			configurationURL: env.OpenIDConfigurationURL,
			signingAlg:       env.IDTokenSigningAlg,
		},
	}, nil
}

// login obtains tokens with grant as the application asks the library for them, and keeps them.
func (s *session) login(grant string) error {
	c := s.client
	var token *oauth2.Token
	var err error
	kept := grant // how the application gets its next token: see savedToken.Grant
	switch grant {
	case "password":
		token, err = c.config.PasswordCredentialsToken(s.ctx, c.username, c.password)
	case "client_credentials":
		token, err = c.credentials.Token(s.ctx)
	case "refresh_token":
		// x/oauth2 has no "refresh now" call. Its documented way to get a new token is a
		// TokenSource over a token that is not Valid(): here the held token stripped of its access
		// token, so the library refreshes with the refresh token it holds (or says it has none).
		held := c.store.current()
		kept = held.Grant
		stale := &oauth2.Token{}
		if held.Token != nil {
			stale.RefreshToken = held.Token.RefreshToken
		}
		token, err = c.config.TokenSource(s.ctx, stale).Token()
	default:
		return &clientError{Category: "unsupported", Message: "login " + grant + " is not implemented"}
	}
	if err != nil {
		return err
	}
	c.keep(kept, token, s.frame, nil)
	return nil
}

// request calls the resource through the library's *http.Client, which attaches the token and
// refreshes it when the library finds it not Valid().
func (s *session) request(method, target string, headers map[string]string, body *string) (int, string, error) {
	request, err := resourceRequest(s.ctx, method, target, headers, body)
	if err != nil {
		return 0, "", err
	}
	return callResource(s.http, request)
}

// tokens is what the application holds now, for the `tokens` message.
func (c *client) tokens() interface{} {
	held := c.store.current().Token
	if held == nil || held.AccessToken == "" {
		return nil
	}
	var refresh interface{}
	if held.RefreshToken != "" {
		refresh = held.RefreshToken
	}
	return map[string]interface{}{
		"access_token":  held.AccessToken,
		"refresh_token": refresh,
		"expires_at":    unixSeconds(held.Expiry),
	}
}

// close ends the scenario's connections: the provider is about to stop.
func (c *client) close() {
	c.http.CloseIdleConnections()
}

// restart is a relaunched application: everything in memory is gone (the pending authorization,
// the discovered provider, the connections); the token and the signed-in user come back from
// what was persisted.
func (c *client) restart() error {
	c.mu.Lock()
	c.pending = nil
	c.provider = nil // and its cached JWKS
	c.mu.Unlock()
	c.http.CloseIdleConnections()
	resetAuthStyleCache() // the library's package-level cache dies with the process
	return c.store.reload()
}
