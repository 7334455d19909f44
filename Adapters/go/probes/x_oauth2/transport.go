// Cause: the Authorization header x/oauth2 0.3.0 writes, and where net/http takes it.
// oauth2.Transport sets "<Type()> <access token>" on every request it carries
// (transport.go:32-56), Type() being any token_type the provider sent (token.go:57-72), and
// every hop of a redirect net/http follows goes through the Transport again. The token
// endpoint's own requests go through the application's *http.Client, whose net/http 1.19
// follows a 307/308 with the body, and copies the initial request's headers onto each hop whose
// previous hop had the same host (/usr/lib/go-1.19/src/net/http/client.go:754-797, 976).
package main

import (
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/oauth2"
)

func init() {
	register("token-type-used-as-scheme",
		`any token_type is accepted and used as the Authorization scheme: the token goes to the resource as "MAC …", "n_a …", "dpop …"`,
		tokenTypeUsedAsScheme)
	register("token-type-used-as-scheme-on-refresh",
		`any token_type in a refresh response is accepted and used as the Authorization scheme: the refreshed token goes to the resource as "MAC …", "n_a …", "dpop …"`,
		tokenTypeOnRefreshUsedAsScheme)
	register("resource-redirect-carries-token",
		"oauth2.Transport sets Authorization on every request it carries, including the one net/http makes to follow a 302, 307 or 308 from the resource to another origin",
		func() []string { return resourceRedirect(false, []int{302, 307, 308}) })
	register("https-to-http-redirect-carries-token",
		"oauth2.Transport sets Authorization on every request it carries, including the redirected one from the HTTPS resource to plain HTTP",
		func() []string { return resourceRedirect(true, []int{302}) })
	register("token-endpoint-redirect-posts-secrets",
		`net/http follows the token endpoint's 307/308 and posts the form, password included, to the other origin; it drops Authorization on that hop but puts the Basic credentials back on the other origin's own redirects, AuthStyleAutoDetect's retry adds client_secret to the form, and it ends with "stopped after 10 redirects"`,
		tokenEndpointRedirect)
}

func tokenTypeUsedAsScheme() []string {
	var c checks
	for _, tokenType := range []string{"mac", "n_a", "dpop"} {
		say("-- the token response says token_type %q", tokenType)
		p := newProvider("provider")
		p.handle("/token", func(w http.ResponseWriter, r *http.Request) {
			tokenJSON(w, map[string]interface{}{"access_token": "at-1", "token_type": tokenType, "expires_in": 3600})
		})
		p.handle("/resource", resourceOK)
		app := newApplication(p)
		token, err := app.signIn()
		c.expect(err == nil, "the sign-in accepted it")
		if err != nil {
			continue
		}
		say("application: client := config.Client(ctx, token)")
		app.call(app.config.Client(app.ctx, token), p.URL()+"/resource")
		sent := p.seen("/resource", "")
		want := token.Type() + " at-1"
		c.expect(len(sent) == 1 && sent[0].Authorization == want && strings.EqualFold(token.Type(), tokenType),
			"the resource got Authorization: %s", want)
	}
	return c
}

func tokenTypeOnRefreshUsedAsScheme() []string {
	var c checks
	for _, tokenType := range []string{"mac", "n_a", "dpop"} {
		say("-- the sign-in gives a Bearer token; the refresh response says token_type %q", tokenType)
		p := newProvider("provider")
		app, token, problems := refreshAnswered(p, map[string]string{"token_type": fmt.Sprintf("%q", tokenType)})
		if token == nil {
			return problems
		}
		say("application: client := config.Client(ctx, token)")
		_, err := app.call(app.config.Client(app.ctx, token), p.URL()+"/resource")
		c.expect(err == nil, "the refresh was accepted: no error before the call went out")
		want := (&oauth2.Token{TokenType: tokenType}).Type() + " at-2"
		sent := p.seen("/resource", "")
		c.expect(len(sent) == 1 && sent[0].Authorization == want, "the resource got Authorization: %s", want)
	}
	return c
}

// resourceRedirect: the resource redirects the first call to another origin (plain HTTP, and
// the provider HTTPS when tls), which answers 200.
func resourceRedirect(tls bool, statuses []int) []string {
	var c checks
	for _, status := range statuses {
		var p *provider
		if tls {
			p = newTLSProvider("https-provider")
		} else {
			p = newProvider("provider")
		}
		other := newProvider("other-origin")
		say("-- %s/resource answers %d Location: %s/resource", p.URL(), status, other.URL())
		p.handle("/token", func(w http.ResponseWriter, r *http.Request) { tokenJSON(w, bearer("at-1", "rt-1", 3600)) })
		p.handle("/resource", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL()+"/resource", status)
		})
		other.handle("/resource", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
		app := newApplication(p)
		token, err := app.signIn()
		if err != nil {
			c.expect(false, "the sign-in succeeded")
			continue
		}
		say("application: client := config.Client(ctx, token)")
		app.call(app.config.Client(app.ctx, token), p.URL()+"/resource")
		sent := other.seen("/resource", "")
		c.expect(len(sent) == 1 && sent[0].Authorization == "Bearer at-1",
			"the other origin (%s) got Authorization: Bearer at-1", other.URL())
	}
	return c
}

func tokenEndpointRedirect() []string {
	var c checks
	for _, status := range []int{307, 308} {
		p := newProvider("provider")
		other := newProvider("other-origin")
		say("-- every /token answers %d Location: %s/token", status, other.URL())
		redirect := func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other.URL()+"/token", status) }
		p.handle("/token", redirect)
		other.handle("/token", redirect)
		_, err := newApplication(p).signIn()
		c.expect(err != nil && strings.Contains(err.Error(), "stopped after 10 redirects"), `the sign-in fails with "stopped after 10 redirects"`)
		sent := other.seen("/token", "")
		withPassword, withBasic, withSecret := 0, 0, 0
		for _, r := range sent {
			if r.Form.Get("password") == password {
				withPassword++
			}
			if strings.HasPrefix(r.Authorization, "Basic ") {
				withBasic++
			}
			if r.Form.Get("client_secret") == clientSecret {
				withSecret++
			}
		}
		c.expect(len(sent) > 0 && withPassword == len(sent), "the other origin got the password in every one of its %d requests", len(sent))
		c.expect(len(sent) > 0 && sent[0].Authorization == "", "its first request (the hop from the provider) had no Authorization")
		c.expect(withBasic > 0, "its own redirects had the Basic credentials back (%d requests)", withBasic)
		c.expect(withSecret > 0, "AuthStyleAutoDetect's retry brought client_secret in the form (%d requests)", withSecret)
	}
	return c
}
