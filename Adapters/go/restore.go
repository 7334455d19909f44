// The tokens sign-in (restore_tokens): a session the application saved earlier, handed to the
// library as its documentation has an application hand it a token it already holds.
package main

import (
	"math"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// grantTokens marks a restored session: no grant of its own to repeat, only the refresh token.
const grantTokens = "tokens"

// restoreTokens keeps the saved session as the application's token, without a request. The next
// message hands it to the library the documented way, Config.TokenSource(ctx, t) under
// oauth2.NewClient ("returns t until t expires, automatically refreshing it as necessary",
// oauth2.go:235-251), as every message does with the token held (session.go): the library's
// reuseTokenSource returns it while Valid() and otherwise refreshes with its RefreshToken
// (oauth2.go:265-312). The Token has no scope field, so the saved scope has nowhere to go.
func (c *client) restoreTokens(m *message) error {
	if !strings.EqualFold(m.TokenType, "bearer") {
		// Token.Type() becomes the Authorization scheme as is (token.go:58-73) and oauth2.Transport
		// adds no proof: a DPoP-bound session would go out as "DPoP <token>" alone.
		return &clientError{Category: "unsupported", Message: "a " + m.TokenType +
			" session cannot be restored: oauth2.Transport sends the token with its type as the scheme and no DPoP proof"}
	}
	saved := &oauth2.Token{AccessToken: m.AccessToken, TokenType: m.TokenType}
	if m.RefreshToken != nil {
		saved.RefreshToken = *m.RefreshToken
	}
	if m.ExpiresAt != nil {
		// The protocol's expires_at is on the clock of `now`, the virtual frame the store keeps
		// tokens in (clock.go); a null one stays the zero Expiry, the library's "never expires".
		saved.Expiry = time.UnixMilli(int64(math.Round(*m.ExpiresAt * 1000))).UTC()
	}
	return c.store.replace(grantTokens, saved)
}
