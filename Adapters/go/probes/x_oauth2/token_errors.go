// Cause: how x/oauth2 0.3.0 surfaces a refused or unreadable token response, and what
// AuthStyleAutoDetect does with it. A non-2xx answer becomes *oauth2.RetrieveError, which has
// only Response and Body (oauth2/token.go:169-174) and whose Error() quotes the body
// (token.go:176-178): the RFC 6749 §5.2 code is never parsed. A 2xx without access_token is
// errors.New("oauth2: server response missing access_token") (internal/token.go:281-283). And
// with Endpoint.AuthStyle left at zero, a token request that fails for any reason is sent a
// second time with client_id and client_secret in the form (internal/token.go:203-219).
package main

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/oauth2"
)

var sectionFiveTwo = []string{"invalid_request", "invalid_client", "invalid_grant", "unauthorized_client",
	"unsupported_grant_type", "invalid_scope"}

func init() {
	register("token-error-surfaced",
		"a code redemption refused with each RFC 6749 §5.2 code fails with *oauth2.RetrieveError, which has only Response and Body, the code only in its Error() text, and AuthStyleAutoDetect sends the refused redemption a second time with client_secret in the form",
		tokenErrorSurfaced)
	register("refresh-error-surfaced",
		"a refresh refused with each RFC 6749 §5.2 code reaches the application as *oauth2.RetrieveError, which has only Response and Body, the code only in its Error() text",
		refreshErrorSurfaced)
	register("error-body-with-200-login",
		`a 200 answer with an error body fails the code's redemption as "oauth2: server response missing access_token", without the code, and AuthStyleAutoDetect sends the redemption a second time`,
		func() []string {
			return unreadableSignIn(`{"error":"invalid_grant","error_description":"wrong username or password"}`,
				"oauth2: server response missing access_token", "invalid_grant", false)
		})
	register("truncated-token-response",
		"a token response cut off in its JSON fails the code's redemption (unexpected end of JSON input), and AuthStyleAutoDetect sends the redemption a second time with client_secret in the form; a provider whose codes are single-use refuses that one (invalid_grant), and the sign-in fails with it",
		func() []string {
			return unreadableSignIn(`{"access_token":"at-1","t`, "unexpected end of JSON input", "", true)
		})
	register("expires-in-soon",
		`expires_in "soon" fails the whole token response (json: invalid number literal ... into Number), and AuthStyleAutoDetect sends the code's redemption a second time; a provider whose codes are single-use refuses that one (invalid_grant), and the application gets no token`,
		func() []string {
			return unreadableSignIn(`{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt-1","expires_in":"soon"}`,
				"invalid number literal", "", true)
		})
	register("expires-in-fraction",
		`expires_in 7199.5 fails the whole token response (strconv.ParseInt: parsing "7199.5": invalid syntax), and AuthStyleAutoDetect sends the code's redemption a second time; a provider whose codes are single-use refuses that one (invalid_grant), and the application gets no token`,
		func() []string {
			return unreadableSignIn(`{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt-1","expires_in":7199.5}`,
				`strconv.ParseInt: parsing "7199.5": invalid syntax`, "", true)
		})
	register("expires-in-soon-on-refresh",
		`a refresh answered with expires_in "soon" fails the call (json: invalid number literal ... into Number); the token source keeps the expired token, so each next call sends the refresh again and fails alike (three refreshes for three calls, none reaching the resource)`,
		func() []string { return unreadableRefresh(`"soon"`, "invalid number literal") })
	register("expires-in-fraction-on-refresh",
		`a refresh answered with expires_in 7199.5 fails the call (strconv.ParseInt: parsing "7199.5": invalid syntax); the token source keeps the expired token, so each next call sends the refresh again and fails alike (three refreshes for three calls, none reaching the resource)`,
		func() []string { return unreadableRefresh(`7199.5`, `strconv.ParseInt: parsing "7199.5": invalid syntax`) })
}

// retrieveErrorFields is what *oauth2.RetrieveError offers the application besides Error().
func retrieveErrorFields() []string {
	kind := reflect.TypeOf(oauth2.RetrieveError{})
	fields := make([]string, kind.NumField())
	for i := range fields {
		fields[i] = kind.Field(i).Name + " " + kind.Field(i).Type.String()
	}
	return fields
}

// expectRetrieveError checks that err is a *oauth2.RetrieveError (as the application finds it
// with errors.As, through the *url.Error of an HTTP call) with nothing but Response and Body,
// and that code is in its text.
func expectRetrieveError(c *checks, err error, code string) {
	var retrieve *oauth2.RetrieveError
	if !errors.As(err, &retrieve) {
		c.expect(false, "the error is a *oauth2.RetrieveError (it is %s)", describeError(err))
		return
	}
	fields := retrieveErrorFields()
	c.expect(len(fields) == 2, "*oauth2.RetrieveError has only %s: no field for the §5.2 code", strings.Join(fields, ", "))
	c.expect(strings.Contains(retrieve.Error(), code), "%q is only words of its Error() text (status %s)", code, retrieve.Response.Status)
}

// expectAutoDetectResend checks that the grant went to the token endpoint twice: first with
// HTTP Basic, then again with client_id and client_secret in the form.
func expectAutoDetectResend(c *checks, p *provider, grant string) {
	sent := p.seen("/token", grant)
	c.expect(len(sent) == 2, "the %s grant was sent twice (sent %d times)", grant, len(sent))
	if len(sent) != 2 {
		return
	}
	first, second := sent[0], sent[1]
	c.expect(strings.HasPrefix(first.Authorization, "Basic ") && first.Form.Get("client_secret") == "",
		"the first with HTTP Basic client authentication")
	c.expect(second.Authorization == "" && second.Form.Get("client_secret") == clientSecret,
		"the second with client_secret=%s in the form (AuthStyleAutoDetect's retry)", second.Form.Get("client_secret"))
	c.expect(second.Form.Get(grantSecret(grant)) == first.Form.Get(grantSecret(grant)),
		"the second carries the same %s", grantSecret(grant))
}

// grantSecret is the form field that carries what a grant redeems.
func grantSecret(grant string) string {
	switch grant {
	case "password":
		return "password"
	case "refresh_token":
		return "refresh_token"
	default:
		return "code"
	}
}

func tokenErrorSurfaced() []string {
	var c checks
	for _, code := range sectionFiveTwo {
		say("-- the token endpoint refuses every request with %s", code)
		p := newProvider("provider")
		codeFlow(p)
		p.handle("/token", func(w http.ResponseWriter, r *http.Request) { oauthError(w, code) })
		token, err := newApplication(p).signInWithCode()
		c.expect(token == nil && err != nil, "the sign-in failed")
		if err != nil {
			expectRetrieveError(&c, err, code)
		}
		expectAutoDetectResend(&c, p, "authorization_code")
	}
	return c
}

// signedInBeforeRefresh is the start of every refresh case: a password grant answered with an
// hour-long Bearer token (sent once, with HTTP Basic, which AuthStyleAutoDetect then remembers
// for this token URL), then the application's token with its lifetime passed.
func signedInBeforeRefresh(p *provider, refresh http.HandlerFunc) (*application, *oauth2.Token, checks) {
	var c checks
	p.handle("/token", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("grant_type") == "password" {
			tokenJSON(w, bearer("at-1", "rt-1", 3600))
			return
		}
		refresh(w, r)
	})
	p.handle("/resource", resourceOK)
	app := newApplication(p)
	token, err := app.signIn()
	c.expect(err == nil, "the sign-in succeeded")
	if err != nil {
		return nil, nil, c
	}
	token = expired(token)
	say("application: an hour later its token is %s", describeToken(token))
	return app, token, c
}

// refreshAnswered is signedInBeforeRefresh with every refresh answered 200 with an hour-long
// Bearer token at-2, at-3, … (one per refresh, keeping rt-1), the fields in change written
// instead as the raw JSON values they hold (so expires_in can be any JSON value).
func refreshAnswered(p *provider, change map[string]string) (*application, *oauth2.Token, checks) {
	var mu sync.Mutex
	issued := 1
	return signedInBeforeRefresh(p, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		issued++
		fields := map[string]string{"access_token": fmt.Sprintf("%q", fmt.Sprintf("at-%d", issued)),
			"token_type": `"Bearer"`, "refresh_token": `"rt-1"`, "expires_in": "3600"}
		mu.Unlock()
		for name, value := range change {
			fields[name] = value
		}
		parts := make([]string, 0, len(fields))
		for _, name := range []string{"access_token", "token_type", "refresh_token", "expires_in"} {
			parts = append(parts, fmt.Sprintf("%q:%s", name, fields[name]))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "{"+strings.Join(parts, ",")+"}")
	})
}

// callsAfterRefresh is the application's three calls through config.Client with its expired
// token, the first of which refreshes.
func callsAfterRefresh(app *application, token *oauth2.Token, target string) []error {
	say("application: client := config.Client(ctx, token); three calls")
	client := app.config.Client(app.ctx, token)
	errs := make([]error, 3)
	for i := range errs {
		_, errs[i] = app.call(client, target)
	}
	return errs
}

// unreadableRefresh answers every refresh with expires_in written as expiresIn (the sign-in
// gave an ordinary hour-long token), and checks that each of three calls sends its own refresh
// and fails with want; no AuthStyleAutoDetect retry here: the style that worked for the
// sign-in is remembered for the token URL.
func unreadableRefresh(expiresIn, want string) []string {
	p := newProvider("provider")
	say("-- the sign-in's token response is ordinary; every refresh is answered 200 with expires_in %s", expiresIn)
	app, token, c := refreshAnswered(p, map[string]string{"expires_in": expiresIn})
	if token == nil {
		return c
	}
	for i, err := range callsAfterRefresh(app, token, p.URL()+"/resource") {
		c.expect(err != nil && strings.Contains(err.Error(), want), "call %d failed with %q", i+1, want)
	}
	expectResent(&c, p, "rt-1", 3)
	basic := true
	for _, r := range p.seen("/token", "refresh_token") {
		basic = basic && strings.HasPrefix(r.Authorization, "Basic ") && r.Form.Get("client_secret") == ""
	}
	c.expect(basic, "each refresh with HTTP Basic, none repeated with client_secret in the form")
	return c
}

func refreshErrorSurfaced() []string {
	var c checks
	for _, code := range sectionFiveTwo {
		say("-- the token endpoint refuses the refresh with %s", code)
		p := newProvider("provider")
		app, token, problems := signedInBeforeRefresh(p, func(w http.ResponseWriter, r *http.Request) { oauthError(w, code) })
		if token == nil {
			return problems
		}
		say("application: client := config.Client(ctx, token)")
		_, err := app.call(app.config.Client(app.ctx, token), p.URL()+"/resource")
		c.expect(err != nil, "the call failed")
		if err != nil {
			expectRetrieveError(&c, err, code)
		}
		refreshes := p.seen("/token", "refresh_token")
		c.expect(len(refreshes) == 1, "the refresh was sent once (%d)", len(refreshes))
		c.expect(len(p.seen("/resource", "")) == 0, "the resource was not called")
	}
	return c
}

// unreadableSignIn answers the code's redemption with status 200 and body, and checks that the
// sign-in fails with an error whose text has want (and not absent), after AuthStyleAutoDetect's
// second request. With singleUse, it does so twice: first with a provider that answers every
// request alike (what the library makes of body), then with one whose codes are single-use, as
// the harness's provider is: having issued tokens for code-1, it refuses the retry.
func unreadableSignIn(body, want, absent string, singleUse bool) []string {
	var c checks
	for _, refusesReuse := range []bool{false, true} {
		if refusesReuse && !singleUse {
			break
		}
		p := newProvider("provider")
		codeFlow(p)
		var mu sync.Mutex
		redeemed := false
		p.handle("/token", func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			reused := redeemed && refusesReuse
			redeemed = true
			mu.Unlock()
			if reused {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprint(w, `{"error":"invalid_grant","error_description":"the authorization code was already used"}`)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, body)
		})
		if refusesReuse {
			say("-- the same, from a provider whose codes are single-use: it answered code-1 once")
		} else {
			say("-- the token endpoint answers 200 with %s", body)
		}
		token, err := newApplication(p).signInWithCode()
		c.expect(token == nil && err != nil, "the sign-in failed and the application has no token")
		expectAutoDetectResend(&c, p, "authorization_code")
		if err == nil {
			continue
		}
		if refusesReuse {
			c.expect(strings.Contains(err.Error(), "already used"), "its error is the retry's invalid_grant (the code was already used)")
			continue
		}
		c.expect(strings.Contains(err.Error(), want), "its error says %q", want)
		if absent != "" {
			c.expect(!strings.Contains(err.Error(), absent), "and not %q", absent)
			var retrieve *oauth2.RetrieveError
			c.expect(!errors.As(err, &retrieve), "it is not even a *oauth2.RetrieveError (it is %T)", err)
		}
	}
	return c
}
