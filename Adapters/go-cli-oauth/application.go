// The scenario's application: what the library leaves to it. github.com/cli/oauth obtains a
// token and nothing more (api.AccessToken: Token, RefreshToken, Type, Scope; no expiry, no
// refresh call, no store, no client for a resource). GitHub's CLI keeps the token it returns and
// sends it with every API call; its tokens do not expire. So this application keeps the token in
// memory, sends it as `Authorization: Bearer <token>` (the form GitHub's REST documentation
// shows for an OAuth token), never refreshes, and hands any answer, a 401 included, to its caller.
package main

import (
	"context"
	"net/http"
	"sync"

	"github.com/cli/oauth/api"
)

// client is one scenario's application.
type client struct {
	env  *environment
	http *http.Client

	mu     sync.Mutex
	token  *api.AccessToken // what device.Wait returned last
	device *deviceFlow      // the device authorization under way, if any
}

func newClient(env *environment) (*client, error) {
	httpClient, err := newHTTPClient(env.CAFile)
	if err != nil {
		return nil, err
	}
	return &client{env: env, http: httpClient}, nil
}

func (c *client) keep(token *api.AccessToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.token = token
}

func (c *client) held() *api.AccessToken {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.token
}

// request calls the resource with the token held.
func (c *client) request(method, target string, headers map[string]string, body *string) (int, string, error) {
	token := c.held()
	if token == nil {
		return 0, "", &clientError{Category: "authorization_required", Type: "application", Message: "not signed in"}
	}
	request, err := resourceRequest(context.Background(), method, target, headers, body)
	if err != nil {
		return 0, "", err
	}
	request.Header.Set("Authorization", "Bearer "+token.Token)
	return callResource(c.http, request)
}

// tokens is what the application holds now, for the `tokens` message: no expiry, the library
// gives none.
func (c *client) tokens() interface{} {
	token := c.held()
	if token == nil || token.Token == "" {
		return nil
	}
	var refresh interface{}
	if token.RefreshToken != "" {
		refresh = token.RefreshToken
	}
	return map[string]interface{}{"access_token": token.Token, "refresh_token": refresh, "expires_at": nil}
}

// close ends the scenario: a device loop still waiting returns, connections close.
func (c *client) close() {
	c.mu.Lock()
	if c.device != nil {
		c.device.end()
		c.device = nil
	}
	c.mu.Unlock()
	c.http.CloseIdleConnections()
}
