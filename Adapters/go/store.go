// The application's token: what the library handed it, kept in memory and persisted in the
// scenario's storage_dir, as a Go application saves each token its TokenSource produces.
package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/oauth2"
)

// grantClientCredentials marks a token obtained with clientcredentials.Config: when it expires,
// the application's token source asks for a new one with that grant, not with a refresh token.
const grantClientCredentials = "client_credentials"

// savedToken is the persisted form: the library's Token (its own JSON form), with Expiry in the
// virtual frame, and the grant the application signed in with (password, authorization_code,
// openid, client_credentials, or tokens for a restored session), which decides the token source it builds: a refreshing one, or one that
// asks again with client_credentials.
type savedToken struct {
	Grant string        `json:"grant"`
	Token *oauth2.Token `json:"token"`
	// The user of the ID token accepted last (OpenID Connect sign-in), or nil: the application's
	// session, persisted with its tokens and kept when they are refreshed.
	Identity *identity `json:"identity,omitempty"`
}

// tokenStore holds the current token and writes every new one to its file.
type tokenStore struct {
	mu    sync.Mutex
	path  string
	saved savedToken
}

func newTokenStore(storageDir string) *tokenStore {
	return &tokenStore{path: filepath.Join(storageDir, "x-oauth2-token.json")}
}

// current is the token held now (virtual frame) and its grant; the token is nil before a login.
func (s *tokenStore) current() savedToken {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.saved.Token == nil {
		return s.saved
	}
	copied := *s.saved.Token // callers may change it (the frame conversion); never share it
	return savedToken{Grant: s.saved.Grant, Token: &copied, Identity: s.saved.Identity}
}

// save keeps a new token (Expiry already in the virtual frame) and persists it. signedIn is the
// user of a sign-in's accepted ID token; nil keeps the user signed in so far.
func (s *tokenStore) save(grant string, token *oauth2.Token, signedIn *identity) error {
	copied := *token
	s.mu.Lock()
	defer s.mu.Unlock()
	if signedIn == nil {
		signedIn = s.saved.Identity
	}
	s.saved = savedToken{Grant: grant, Token: &copied, Identity: signedIn}
	data, err := json.Marshal(s.saved)
	if err != nil {
		return err
	}
	// Written whole, then renamed: a restart never reads half a file.
	temporary := s.path + ".tmp"
	if err := os.WriteFile(temporary, data, 0o600); err != nil {
		return err
	}
	return os.Rename(temporary, s.path)
}

// replace keeps a token the application brought from elsewhere (a saved session; Expiry already in
// the virtual frame) and persists it; nobody is signed in with OpenID Connect by it.
func (s *tokenStore) replace(grant string, token *oauth2.Token) error {
	s.mu.Lock()
	s.saved = savedToken{}
	s.mu.Unlock()
	return s.save(grant, token, nil)
}

// reload forgets what is in memory and reads what was persisted (nothing, if no token was).
func (s *tokenStore) reload() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saved = savedToken{}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(data, &s.saved)
}
