// Probe: golang.org/x/oauth2 0.3.0 takes a saved session as its documentation has an application
// hand it a token it holds, Config.Client(ctx, t) ("The token will auto-refresh as necessary",
// oauth2.go:227-233), without a request; it uses a valid one as is and refreshes an expired one
// with its RefreshToken before the call (reuseTokenSource.Token and tokenRefresher.Token,
// oauth2.go:265-312; Valid() with expiryDelta 10 s, token.go:22, 126-136).
// Built by Adapters/go/install.sh into bin/probe-restored-session; run: bin/probe-restored-session
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

const (
	savedAccess  = "saved-access-token"
	savedRefresh = "saved-refresh-token"
	newAccess    = "new-access-token"
	newRefresh   = "new-refresh-token"
)

type seen struct {
	method, path, authorization string
	form                        map[string]string
}

func main() {
	var mu sync.Mutex
	var requests []seen
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		form := map[string]string{}
		for name := range r.PostForm {
			if name != "client_secret" {
				form[name] = r.PostForm.Get(name)
			}
		}
		mu.Lock()
		requests = append(requests, seen{r.Method, r.URL.Path, r.Header.Get("Authorization"), form})
		mu.Unlock()
		fmt.Printf("  request: %s %s Authorization=%q form=%v\n", r.Method, r.URL.Path, r.Header.Get("Authorization"), form)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/token" && form["grant_type"] == "refresh_token" && form["refresh_token"] == savedRefresh:
			io.WriteString(w, `{"access_token":"`+newAccess+`","token_type":"Bearer","expires_in":3600,"refresh_token":"`+newRefresh+`"}`)
		case r.URL.Path == "/resource" && (r.Header.Get("Authorization") == "Bearer "+savedAccess || r.Header.Get("Authorization") == "Bearer "+newAccess):
			io.WriteString(w, `{"ok":true}`)
		case r.URL.Path == "/token":
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"invalid_grant"}`)
		default:
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":"invalid_token"}`)
		}
	}))
	defer server.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	config := oauth2.Config{ClientID: "probe-client", ClientSecret: "probe-secret",
		Endpoint: oauth2.Endpoint{TokenURL: server.URL + "/token"}}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(requests) }
	call := func(client *http.Client) int {
		response, err := client.Get(server.URL + "/resource")
		if err != nil {
			fmt.Printf("  surfaced: %v\n", err)
			return 0
		}
		response.Body.Close()
		fmt.Printf("  surfaced: %d\n", response.StatusCode)
		return response.StatusCode
	}

	fmt.Println("1. a saved session whose access token is valid for an hour")
	valid := config.Client(ctx, &oauth2.Token{AccessToken: savedAccess, TokenType: "Bearer", RefreshToken: savedRefresh,
		Expiry: time.Now().Add(time.Hour)})
	quiet := count() == 0
	first := call(valid)
	mu.Lock()
	usedAsIs := len(requests) == 1 && requests[0].path == "/resource" && requests[0].authorization == "Bearer "+savedAccess
	requests = nil
	mu.Unlock()

	fmt.Println("2. a saved session whose access token expired ten seconds ago")
	source := config.TokenSource(ctx, &oauth2.Token{AccessToken: savedAccess, TokenType: "Bearer", RefreshToken: savedRefresh,
		Expiry: time.Now().Add(-10 * time.Second)})
	expired := oauth2.NewClient(ctx, source)
	quiet = quiet && count() == 0
	second := call(expired)
	held, _ := source.Token()
	mu.Lock()
	refreshedFirst := len(requests) == 2 && requests[0].path == "/token" && requests[0].form["grant_type"] == "refresh_token" &&
		requests[0].form["refresh_token"] == savedRefresh && requests[1].authorization == "Bearer "+newAccess
	mu.Unlock()
	kept := held != nil && held.AccessToken == newAccess && held.RefreshToken == newRefresh

	if quiet && usedAsIs && refreshedFirst && kept && first == 200 && second == 200 {
		fmt.Println("confirmed: Config.Client/TokenSource(ctx, saved) sends nothing when given the session, uses a valid saved " +
			"access token as is, and refreshes an expired one with the saved refresh token before the call (the source then holds the new token)")
		return
	}
	fmt.Println("not confirmed: " + strings.Join([]string{
		fmt.Sprintf("restored without a request: %v", quiet), fmt.Sprintf("valid token used as is: %v", usedAsIs),
		fmt.Sprintf("expired one refreshed first: %v", refreshedFirst), fmt.Sprintf("new token held: %v", kept)}, "; "))
	os.Exit(1)
}
