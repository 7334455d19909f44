// The adapter protocol's messages (docs/adapter-protocol.md) and how they are read and written:
// one JSON object a line on stdin, one answer a line on stdout. Shared with Adapters/go-cli-oauth
// (its install.sh builds it beside that adapter's own files), so it names no library.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// protocolVersion is the one version of docs/adapter-protocol.md this adapter speaks.
const protocolVersion = 1

// maxLine is the protocol's bound on a line (4 MiB), plus room for the newline.
const maxLine = 4<<20 + 1

// message is one line from the harness. Every op uses a subset of the fields.
type message struct {
	ID          json.RawMessage   `json:"id"`
	Op          string            `json:"op"`
	Protocol    int               `json:"protocol"`
	Now         *float64          `json:"now"` // Unix seconds of the scenario's virtual clock
	Environment *environment      `json:"environment"`
	Grant       string            `json:"grant"`
	RedirectURL string            `json:"redirect_url"`
	Method      string            `json:"method"`
	URL         string            `json:"url"`
	Headers     map[string]string `json:"headers"`
	Body        *string           `json:"body"`
	Operations  []message         `json:"operations"`
	// restore_tokens: the saved session (expires_at in Unix seconds on the clock of now, or null).
	AccessToken  string   `json:"access_token"`
	TokenType    string   `json:"token_type"`
	RefreshToken *string  `json:"refresh_token"`
	ExpiresAt    *float64 `json:"expires_at"`
	Scope        *string  `json:"scope"`
}

// environment is the reset message's description of the provider and the client's credentials.
type environment struct {
	TokenEndpoint         string  `json:"token_endpoint"`
	AuthorizationEndpoint string  `json:"authorization_endpoint"`
	ResourceBaseURL       string  `json:"resource_base_url"`
	Issuer                string  `json:"issuer"`
	RedirectURI           string  `json:"redirect_uri"`
	ClientID              string  `json:"client_id"`
	ClientSecret          string  `json:"client_secret"`
	Username              string  `json:"username"`
	Password              string  `json:"password"`
	CAFile                *string `json:"ca_file"`
	StorageDir            string  `json:"storage_dir"`
	// OpenID Connect: the discovery document, and the algorithm the client registered for ID
	// tokens (id_token_signed_response_alg; RS256 unless the scenario says otherwise).
	OpenIDConfigurationURL string `json:"openid_configuration_url"`
	IDTokenSigningAlg      string `json:"id_token_signing_alg"`
	// The device authorization grant (RFC 8628 §3.1): read by Adapters/go-cli-oauth, which
	// shares this file.
	DeviceAuthorizationEndpoint string `json:"device_authorization_endpoint"`
}

// clientError is an error the library surfaced to the application, as the protocol reports it:
// the harness derives the category from Status and OAuthError; Category is for what they do not tell.
type clientError struct {
	Category   string `json:"category,omitempty"`
	OAuthError string `json:"oauth_error,omitempty"` // only when the library itself surfaced the §5.2 code
	Status     int    `json:"status,omitempty"`      // only when the library surfaced the HTTP status with its error
	Type       string `json:"type,omitempty"`
	Message    string `json:"message"`
}

func (e *clientError) Error() string { return e.Category + ": " + e.Message }

// outcome is the result of a login, request, restart, complete_authorization, complete_sign_in
// or userinfo.
type outcome struct {
	OK     bool         `json:"ok"`
	Status int          `json:"status,omitempty"`
	Body   *string      `json:"body,omitempty"`
	Error  *clientError `json:"error,omitempty"`
}

func success(status int, body *string) outcome { return outcome{OK: true, Status: status, Body: body} }
func failure(err *clientError) outcome         { return outcome{OK: false, Error: err} }

// answer is one line to the harness: an outcome's fields, plus whatever the op adds, plus the id.
type answer map[string]interface{}

func answerFrom(o outcome) answer {
	a := answer{"ok": o.OK}
	if o.Status != 0 {
		a["status"] = o.Status
	}
	if o.Body != nil {
		a["body"] = *o.Body
	}
	if o.Error != nil {
		a["error"] = o.Error
	}
	return a
}

// codec reads messages and writes whole answer lines; writes are serialised.
type codec struct {
	in  *bufio.Reader
	mu  sync.Mutex
	out io.Writer
}

func newCodec(in io.Reader, out io.Writer) *codec {
	return &codec{in: bufio.NewReaderSize(in, 64<<10), out: out}
}

// read returns the next non-empty line, or io.EOF at the end of input.
func (c *codec) read() ([]byte, error) {
	for {
		line, err := c.in.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it, within the protocol's bound.
			whole := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull && len(whole) < maxLine {
				line, err = c.in.ReadSlice('\n')
				whole = append(whole, line...)
			}
			line = whole
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (c *codec) write(a answer) error {
	var line bytes.Buffer
	encoder := json.NewEncoder(&line)
	encoder.SetEscapeHTML(false)              // URLs keep their '&' readable in traces
	if err := encoder.Encode(a); err != nil { // Encode ends the line with '\n'
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.out.Write(line.Bytes())
	return err
}
