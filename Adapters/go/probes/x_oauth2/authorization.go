// Cause: x/oauth2 0.3.0 leaves the redirect back from the authorization endpoint to the
// application, and its documentation reads only code and state: "The code will be in the
// *http.Request.FormValue("code"). Before calling Exchange, be sure to validate
// FormValue("state")." (oauth2.go:208-209). Exchange takes the code and sends it
// (oauth2.go:213-225); nothing in the package reads error= or iss.
package main

import (
	"net/http"
	"net/url"
	"strings"
	"time"
)

func init() {
	register("authorization-denied-code-redeemed",
		"with error=access_denied in the redirect, the documented callback (state checked, FormValue(\"code\") to Exchange) sends the empty code to the token endpoint, and access_denied is surfaced nowhere (invalid_grant comes back)",
		authorizationDenied)
	register("authorization-issuer-unchecked",
		"there is no RFC 9207 iss check: with iss omitted or naming another issuer, Exchange redeems the code",
		authorizationIssuer)
}

// authorize is the browser's part: it opens the AuthCodeURL and reads where the provider sends
// it back, without following.
func authorize(authCodeURL string) (url.Values, error) {
	browser := &http.Client{Timeout: 4 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	response, err := browser.Get(authCodeURL)
	if err != nil {
		return nil, err
	}
	response.Body.Close()
	back, err := url.Parse(response.Header.Get("Location"))
	if err != nil {
		return nil, err
	}
	say("browser: sent back to %s", back)
	return back.Query(), nil
}

// redirectWith is an authorization endpoint that sends the browser back with the request's
// state and the given parameters.
func redirectWith(extra url.Values) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		back := url.Values{"state": {r.URL.Query().Get("state")}}
		for key, values := range extra {
			back[key] = values
		}
		http.Redirect(w, r, r.URL.Query().Get("redirect_uri")+"?"+back.Encode(), http.StatusFound)
	}
}

func authorizationDenied() []string {
	var c checks
	p := newProvider("provider")
	p.handle("/authorize", redirectWith(url.Values{"error": {"access_denied"}, "iss": {p.URL()}}))
	p.handle("/token", func(w http.ResponseWriter, r *http.Request) { oauthError(w, "invalid_grant") })
	app := newApplication(p)
	state := "state-1"
	say("application: config.AuthCodeURL(%q)", state)
	back, err := authorize(app.config.AuthCodeURL(state))
	if err != nil {
		c.expect(false, "the authorization endpoint answered (%v)", err)
		return c
	}
	c.expect(back.Get("state") == state, "the application checks the state, as documented: it matches")
	say("application: config.Exchange(ctx, FormValue(\"code\") = %q)", back.Get("code"))
	token, err := app.config.Exchange(app.ctx, back.Get("code"))
	if err != nil {
		say("application: Exchange returned %s", describeError(err))
	}
	sent := p.seen("/token", "authorization_code")
	c.expect(len(sent) > 0 && sent[0].Form.Get("code") == "" && len(sent[0].Form["code"]) == 1,
		"Exchange sent the empty code to the token endpoint (%d requests)", len(sent))
	c.expect(token == nil && err != nil && !strings.Contains(err.Error(), "access_denied") &&
		strings.Contains(err.Error(), "invalid_grant"), "the application is told invalid_grant, never access_denied")
	return c
}

func authorizationIssuer() []string {
	var c checks
	for _, iss := range []string{"", "https://attacker.example"} {
		p := newProvider("provider")
		extra := url.Values{"code": {"code-1"}}
		if iss != "" {
			extra.Set("iss", iss)
			say("-- the redirect names iss=%s", iss)
		} else {
			say("-- the redirect has no iss")
		}
		p.handle("/authorize", redirectWith(extra))
		p.handle("/token", func(w http.ResponseWriter, r *http.Request) { tokenJSON(w, bearer("at-1", "rt-1", 3600)) })
		app := newApplication(p)
		state := "state-1"
		say("application: config.AuthCodeURL(%q)", state)
		back, err := authorize(app.config.AuthCodeURL(state))
		if err != nil {
			c.expect(false, "the authorization endpoint answered (%v)", err)
			continue
		}
		c.expect(back.Get("state") == state, "the state matches")
		say("application: config.Exchange(ctx, %q)", back.Get("code"))
		token, err := app.config.Exchange(app.ctx, back.Get("code"))
		sent := p.seen("/token", "authorization_code")
		c.expect(len(sent) == 1 && sent[0].Form.Get("code") == "code-1", "the code was redeemed")
		c.expect(err == nil && token != nil, "Exchange returned the tokens")
	}
	return c
}
