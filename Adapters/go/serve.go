// The adapter protocol's loop (docs/adapter-protocol.md): read a message, answer it, write the
// answer with the message's id. What every adapter answers the same way, whatever its library, is
// here: hello, reset and shutdown, advance, tokens and end, and the faults of a message out of
// order. Everything else goes to the scenario the adapter made at reset. Shared with
// Adapters/go-cli-oauth (its install.sh builds it beside that adapter's own files), so it names no
// library.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
)

// scenario is one reset's client, as an adapter drives its library.
type scenario interface {
	// answer answers every op but hello, reset, shutdown, advance, tokens and end; m.Now is set.
	answer(m *message) answer
	// tokens is what the application holds now, for the `tokens` message.
	tokens() interface{}
	// close ends the scenario: connections close, anything still waiting returns.
	close()
}

// library is what hello reports, and how reset makes a scenario (the adapter's client type C)
// from the environment.
type library[C scenario] struct {
	name, version string
	capabilities  []string
	open          func(env *environment) (C, error)
}

// server is the process's state: the current scenario, if any.
type server[C scenario] struct {
	library  library[C]
	scenario scenario
}

// serve runs the protocol on stdin and stdout until shutdown or the end of input; logs go to
// stderr.
func serve[C scenario](l library[C]) {
	log.SetOutput(os.Stderr)
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	// stdout belongs to the protocol: whatever the library might print goes to stderr.
	protocolOut := os.Stdout
	os.Stdout = os.Stderr
	codec := newCodec(os.Stdin, protocolOut)
	s := &server[C]{library: l}
	for {
		line, err := codec.read()
		if err == io.EOF {
			return
		}
		if err != nil {
			log.Printf("reading stdin: %v", err)
			return
		}
		var m message
		var reply answer
		if err := json.Unmarshal(line, &m); err != nil {
			reply = answer{"fault": "unreadable message: " + err.Error()}
		} else {
			log.Printf("<- %s", m.Op)
			reply = s.handle(&m)
		}
		reply["id"] = m.ID
		if err := codec.write(reply); err != nil {
			log.Printf("writing stdout: %v", err)
			return
		}
		if m.Op == "shutdown" {
			return
		}
	}
}

// handle answers one message; a panic in the adapter's own code becomes a fault.
func (s *server[C]) handle(m *message) (reply answer) {
	defer func() {
		if recovered := recover(); recovered != nil {
			reply = answer{"fault": fmt.Sprintf("adapter panic: %v\n%s", recovered, debug.Stack())}
		}
	}()
	switch m.Op {
	case "hello":
		if m.Protocol != protocolVersion {
			return answerFrom(failure(&clientError{Category: "unsupported", Message: fmt.Sprintf("this adapter speaks protocol %d", protocolVersion)}))
		}
		return answer{"ok": true, "protocol": protocolVersion, "name": s.library.name, "version": s.library.version, "capabilities": s.library.capabilities}
	case "reset":
		if s.scenario != nil {
			s.scenario.close()
		}
		if m.Environment == nil {
			return answer{"fault": "reset without environment"}
		}
		c, err := s.library.open(m.Environment)
		if err != nil {
			return answer{"fault": "cannot make the client: " + err.Error()}
		}
		s.scenario = c // only a client made: never a nil *client inside the interface
		return answer{"ok": true}
	case "shutdown":
		if s.scenario != nil {
			s.scenario.close()
		}
		return answer{"ok": true}
	}
	if s.scenario == nil {
		return answer{"fault": m.Op + " before reset"}
	}
	if m.Now == nil {
		return answer{"fault": m.Op + " without now"}
	}
	switch m.Op {
	case "advance":
		return answer{"ok": true} // the next message's `now` carries the new time
	case "tokens":
		return answer{"ok": true, "tokens": s.scenario.tokens()}
	case "end":
		s.scenario.close()
		return answer{"ok": true}
	}
	return s.scenario.answer(m)
}
