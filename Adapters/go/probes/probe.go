// What every Go probe program shares (docs' probe rule): its cases by name, the bound on a case,
// the checks that say what was seen, and the verdict line, "confirmed: <claim>" (exit 0) or
// "not confirmed: <what happened>" (exit 1).
//
//	bin/probe-NAME <case>     (with no case: the list)
//
// Each probe is its own main package under probes/NAME/; install.sh builds this file beside the
// probe's own (here, and in Adapters/go-cli-oauth), so it names no library.
package main

import (
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// probeCase is one claim and the program that checks it. run returns what contradicts the
// claim, nothing when the library did what the claim says.
type probeCase struct {
	claim string
	run   func() []string
}

var cases = map[string]probeCase{}

// register adds a case; each probe's files call it from init.
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

var printing sync.Mutex

// say prints one line of the probe's output.
func say(format string, args ...interface{}) {
	printing.Lock()
	defer printing.Unlock()
	fmt.Printf(format+"\n", args...)
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

// formText is a form (or a query) for the printout: its fields in name order, name=value.
func formText(form url.Values) string {
	keys := make([]string, 0, len(form))
	for key := range form {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, key := range keys {
		parts = append(parts, key+"="+form.Get(key))
	}
	return strings.Join(parts, " ")
}
