// Cause: what x/oauth2 0.3.0's token source does around a refresh. config.Client / TokenSource
// is a reuseTokenSource over a tokenRefresher (oauth2.go:239-251). The refresher keeps its
// refresh token unless a refresh succeeds (oauth2.go:265-282), and the reuseTokenSource holds
// its mutex across the refresh and refreshes whenever its token is not Valid()
// (oauth2.go:298-310), whatever the last refresh's answer was: a refused refresh token is sent
// again at the next call, by every caller queued on the mutex, and a Retry-After is never read.
// Valid() is false once Expiry - 10 s is before now (token.go:22, 126-136), and Expiry is
// now + expires_in (internal/token.go:68-73), so a negative expires_in is expired on arrival.
package main

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

func init() {
	register("error-body-with-200-refresh",
		`a 200 answer to a refresh with an error body fails the call as "oauth2: server response missing access_token", without the code, and the token source keeps the refresh token and sends it again on the next call`,
		errorBodyWith200Refresh)
	register("invalid-grant-refresh-token-resent",
		"a refresh refused with invalid_grant surfaces no code (a *oauth2.RetrieveError of Response and Body), and the token source keeps the refused refresh token and sends it again on the next call",
		func() []string { return refusedRefreshResent(false) })
	register("revoked-family-refresh-token-resent",
		"with rotation, the refresh presenting the latest (revoked) refresh token is refused with invalid_grant, no code is surfaced, and the token source keeps the revoked refresh token and sends it again on the next call",
		func() []string { return refusedRefreshResent(true) })
	register("failed-refresh-every-waiter",
		"ten calls sharing one client find the token expired: ReuseTokenSource's mutex queues them, but after the refusal each finds the token still invalid and sends its own refresh with the refused token (10, then 11 with the next call), and no code is surfaced",
		failedRefreshEveryWaiter)
	register("retry-after-ignored",
		"after a refresh refused with 429 or 503 and Retry-After (seconds or an HTTP date), the next call sends the refresh again at once",
		retryAfterIgnored)
	register("expires-in-negative",
		"a negative expires_in gives Expiry = now - 60 s, so the token is not Valid() on arrival and the token source refreshes before every call (two refreshes for two calls)",
		expiresInNegative)
	register("expires-in-negative-on-refresh",
		"a refresh answered with a negative expires_in gives the new token Expiry = now - 60 s, so it is not Valid() on arrival and the token source refreshes again before every call (three refreshes for three calls)",
		expiresInNegativeOnRefresh)
}

func errorBodyWith200Refresh() []string {
	p := newProvider("provider")
	app, token, c := signedInBeforeRefresh(p, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"error":"invalid_grant"}`))
	})
	if token == nil {
		return c
	}
	say("application: client := config.Client(ctx, token); two calls")
	client := app.config.Client(app.ctx, token)
	for i := 1; i <= 2; i++ {
		_, err := app.call(client, p.URL()+"/resource")
		c.expect(err != nil && strings.Contains(err.Error(), "oauth2: server response missing access_token") &&
			!strings.Contains(err.Error(), "invalid_grant"),
			"call %d fails with \"oauth2: server response missing access_token\", without invalid_grant", i)
	}
	expectResent(&c, p, "rt-1", 2)
	return c
}

// expectResent checks that the refresh was sent times times, each with refreshToken, and that
// the resource was not called.
func expectResent(c *checks, p *provider, refreshToken string, times int) {
	refreshes := p.seen("/token", "refresh_token")
	same := len(refreshes) == times
	for _, r := range refreshes {
		same = same && r.Form.Get("refresh_token") == refreshToken
	}
	c.expect(same, "the refresh went out %d times, each with refresh_token=%s (%d refreshes)", times, refreshToken, len(refreshes))
	c.expect(len(p.seen("/resource", "")) == 0, "no call reached the resource")
}

// refusedRefreshResent: the refresh is refused with invalid_grant; with rotation, a first
// refresh succeeds (rt-1 → rt-2) and the family is revoked before the next one. Then two calls.
func refusedRefreshResent(rotation bool) []string {
	p := newProvider("provider")
	var mu sync.Mutex
	refreshes := 0
	app, token, c := signedInBeforeRefresh(p, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		refreshes++
		first := refreshes == 1
		mu.Unlock()
		if rotation && first && r.FormValue("refresh_token") == "rt-1" {
			// expires_in 5 is inside the library's 10 s expiryDelta: at-2 is stale as soon as it
			// is used, so the next call refreshes without the probe waiting for a real expiry.
			tokenJSON(w, bearer("at-2", "rt-2", 5))
			return
		}
		oauthError(w, "invalid_grant") // the refresh token was revoked
	})
	if token == nil {
		return c
	}
	say("application: client := config.Client(ctx, token)")
	client := app.config.Client(app.ctx, token)
	if rotation {
		status, err := app.call(client, p.URL()+"/resource")
		c.expect(err == nil && status == 200, "the first call refreshed (rt-1 → rt-2) and reached the resource")
		say("-- the provider revokes the token family; at-2 (expires_in 5) is already within the 10 s expiryDelta")
	}
	for i := 1; i <= 2; i++ {
		_, err := app.call(client, p.URL()+"/resource")
		c.expect(err != nil, "the next call %d fails", i)
		if err != nil {
			expectRetrieveError(&c, err, "invalid_grant")
		}
	}
	refused := p.seen("/token", "refresh_token")
	if rotation {
		refused = refused[1:]
	}
	want := "rt-1"
	if rotation {
		want = "rt-2"
	}
	same := len(refused) == 2
	for _, r := range refused {
		same = same && r.Form.Get("refresh_token") == want && r.Status == http.StatusBadRequest
	}
	c.expect(same, "the refused refresh token %s was sent again at the next call (%d refused refreshes)", want, len(refused))
	return c
}

func failedRefreshEveryWaiter() []string {
	p := newProvider("provider")
	app, token, c := signedInBeforeRefresh(p, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		oauthError(w, "invalid_grant")
	})
	if token == nil {
		return c
	}
	say("application: client := config.Client(ctx, token); ten goroutines call client.Get at once")
	client := app.config.Client(app.ctx, token)
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = app.call(client, p.URL()+"/resource")
		}(i)
	}
	wg.Wait()
	during := len(p.seen("/token", "refresh_token"))
	failedAll, coded := true, false
	for _, err := range errs {
		failedAll = failedAll && err != nil
		var retrieve *oauth2.RetrieveError
		if err != nil && !errors.As(err, &retrieve) {
			coded = true
		}
	}
	c.expect(failedAll, "all ten calls failed")
	c.expect(!coded, "each with a *oauth2.RetrieveError (Response and Body only: no code)")
	c.expect(p.mostAtOnce() == 1, "the refreshes never overlapped: the mutex queued the callers (at most %d at once)", p.mostAtOnce())
	c.expect(during == 10, "yet each of the ten sent its own refresh (%d refreshes)", during)
	say("application: one more call")
	app.call(client, p.URL()+"/resource")
	expectResent(&c, p, "rt-1", 11)
	return c
}

func retryAfterIgnored() []string {
	var c checks
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		for _, format := range []string{"seconds", "http_date"} {
			retryAfter := "30"
			if format == "http_date" {
				retryAfter = time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
			}
			say("-- the first refresh is refused with %d, Retry-After: %s", status, retryAfter)
			p := newProvider("provider")
			var mu sync.Mutex
			refreshes := 0
			app, token, problems := signedInBeforeRefresh(p, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				refreshes++
				first := refreshes == 1
				mu.Unlock()
				if first {
					w.Header().Set("Retry-After", retryAfter)
					w.WriteHeader(status)
					return
				}
				tokenJSON(w, bearer("at-2", "rt-1", 3600))
			})
			if token == nil {
				return problems
			}
			client := app.config.Client(app.ctx, token)
			_, err := app.call(client, p.URL()+"/resource")
			c.expect(err != nil, "the first call fails")
			app.call(client, p.URL()+"/resource")
			sent := p.seen("/token", "refresh_token")
			c.expect(len(sent) == 2, "the next call sent the refresh again (%d refreshes)", len(sent))
			if len(sent) == 2 {
				gap := sent[1].At.Sub(sent[0].At)
				c.expect(gap < 5*time.Second, "%v after the refused one, not 30 s", gap.Round(time.Millisecond))
			}
		}
	}
	return c
}

func expiresInNegativeOnRefresh() []string {
	p := newProvider("provider")
	say("-- the sign-in's token response is ordinary; every refresh is answered with expires_in -60")
	app, token, c := refreshAnswered(p, map[string]string{"expires_in": "-60"})
	if token == nil {
		return c
	}
	for i, err := range callsAfterRefresh(app, token, p.URL()+"/resource") {
		c.expect(err == nil, "call %d succeeded", i+1)
	}
	refreshes := len(p.seen("/token", "refresh_token"))
	c.expect(refreshes == 3, "the token source refreshed before each call (%d refreshes for 3 calls)", refreshes)
	used := []string{}
	for _, r := range p.seen("/resource", "") {
		used = append(used, r.Authorization)
	}
	c.expect(strings.Join(used, ",") == "Bearer at-2,Bearer at-3,Bearer at-4",
		"each call carried the token of its own refresh (%s)", strings.Join(used, ", "))
	return c
}

func expiresInNegative() []string {
	var c checks
	p := newProvider("provider")
	issued := 0
	var mu sync.Mutex
	p.handle("/token", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		issued++
		n := issued
		mu.Unlock()
		tokenJSON(w, bearer("at-"+string(rune('0'+n)), "rt-1", -60))
	})
	p.handle("/resource", resourceOK)
	app := newApplication(p)
	token, err := app.signIn()
	c.expect(err == nil, "the sign-in succeeded")
	if err != nil {
		return c
	}
	ago := time.Until(token.Expiry)
	c.expect(ago < -55*time.Second && ago > -65*time.Second, "Expiry is now - 60 s (%v)", ago.Round(time.Second))
	c.expect(!token.Valid(), "the token is not Valid() on arrival")
	say("application: client := config.Client(ctx, token); two calls")
	client := app.config.Client(app.ctx, token)
	for i := 1; i <= 2; i++ {
		status, err := app.call(client, p.URL()+"/resource")
		c.expect(err == nil && status == 200, "call %d succeeded", i)
	}
	refreshes := len(p.seen("/token", "refresh_token"))
	c.expect(refreshes == 2, "the token source refreshed before each call (%d refreshes for 2 calls)", refreshes)
	return c
}
