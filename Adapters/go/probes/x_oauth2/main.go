// Probes of what Adapters/go/x-oauth2.yaml claims about golang.org/x/oauth2 0.3.0 and
// github.com/coreos/go-oidc 2.1.0, without the harness: each case starts throwaway HTTP servers
// on 127.0.0.1 (net/http/httptest), drives the library as an application does by its
// documentation, prints every request the library sent and what it surfaced, and ends with
// "confirmed: <claim>" (exit 0) when the library does what the claim says, or
// "not confirmed: <what happened>" (exit 1).
//
//	bin/probe-x-oauth2 <case>     (with no case: the list)
//
// The cases are grouped by cause, one file each: token_errors.go (how a refused or unreadable
// token response surfaces, and AuthStyleAutoDetect's second request), refresh.go (what the
// token source does after a refused refresh, Retry-After, expired-on-arrival tokens),
// transport.go (the Authorization header oauth2.Transport writes, and redirects),
// authorization.go (the code flow's redirect), openid.go (go-oidc's ID token and userinfo).
//
// probes/probe.go (built beside these files by install.sh) holds the cases' table, main and the
// checks.
package main
