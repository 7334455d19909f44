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
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

// probeCase is one claim and the program that checks it. run returns what contradicts the
// claim, nothing when the library did what the claim says.
type probeCase struct {
	claim string
	run   func() []string
}

var cases = map[string]probeCase{}

func register(name, claim string, run func() []string) {
	cases[name] = probeCase{claim: claim, run: run}
}

// deadline bounds a whole case, whatever the library does (every HTTP exchange has its own
// shorter timeout too).
const deadline = 15 * time.Second

func main() {
	if len(os.Args) != 2 || cases[os.Args[1]].run == nil {
		names := make([]string, 0, len(cases))
		for name := range cases {
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: %s <case>\ncases:\n  %s\n", os.Args[0], strings.Join(names, "\n  "))
		os.Exit(2)
	}
	c := cases[os.Args[1]]
	go func() {
		time.Sleep(deadline)
		say("not confirmed: the case did not end within %v", deadline)
		os.Exit(1)
	}()
	problems := c.run()
	if len(problems) > 0 {
		say("not confirmed: %s", strings.Join(problems, "; "))
		os.Exit(1)
	}
	say("confirmed: %s", c.claim)
}

// checks collects what contradicts a claim.
type checks []string

// expect records problem when ok is false, and says what was checked either way.
func (c *checks) expect(ok bool, format string, args ...interface{}) {
	text := fmt.Sprintf(format, args...)
	if ok {
		say("  ✓ %s", text)
		return
	}
	say("  ✗ %s", text)
	*c = append(*c, text)
}
