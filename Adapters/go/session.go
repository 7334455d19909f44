// One message's view of the client: the library's token source and HTTP client, rebuilt at each
// message from the stored token moved into the real frame (clock.go), and the wrapper that saves
// each new token the library produces.
package main

import (
	"context"
	"log"
	"net/http"
	"sync"

	"golang.org/x/oauth2"
)

// session is one message's view of the client: the library's token source and HTTP client,
// built from the stored token moved into the real frame. Every operation of a `concurrently`
// message shares it, as goroutines of an application share one client.
type session struct {
	client *client
	frame  frame
	ctx    context.Context
	source oauth2.TokenSource // ReuseTokenSource over savingSource over the library's source
	http   *http.Client       // oauth2.NewClient(ctx, source)
}

func (c *client) session(ctx context.Context, f frame) *session {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, c.http)
	current := c.store.current()
	var seed *oauth2.Token
	if current.Token != nil {
		seed = current.Token
		seed.Expiry = f.toReal(seed.Expiry)
	}
	var library oauth2.TokenSource
	if current.Grant == grantClientCredentials {
		// clientcredentials.Config.TokenSource caches in a ReuseTokenSource; ReuseTokenSource(seed, …)
		// swaps its empty cache for the stored token and keeps its grant for the next one.
		library = oauth2.ReuseTokenSource(seed, c.credentials.TokenSource(ctx))
	} else {
		library = c.config.TokenSource(ctx, seed) // refreshes with seed.RefreshToken once seed is not Valid()
	}
	s := &session{client: c, frame: f, ctx: ctx}
	saving := &savingSource{inner: library, last: seed, save: func(t *oauth2.Token) {
		c.keep(current.Grant, t, f, nil)
	}}
	s.source = oauth2.ReuseTokenSource(nil, saving)
	s.http = oauth2.NewClient(ctx, s.source)
	s.http.Timeout = httpTimeout // NewClient takes only the context client's Transport
	return s
}

// keep stores a token the library produced, its expiry moved into the virtual frame. signedIn is
// the user of a sign-in's accepted ID token; nil (any other token) keeps the user signed in so far.
func (c *client) keep(grant string, t *oauth2.Token, f frame, signedIn *identity) {
	kept := *t
	kept.Expiry = f.toVirtual(t.Expiry)
	if err := c.store.save(grant, &kept, signedIn); err != nil {
		log.Printf("saving the token failed: %v", err)
	}
	log.Printf("new token from the library (grant %s): expires %v (virtual)", grant, kept.Expiry)
	if _, ok := t.Extra("id_token").(string); ok && signedIn == nil {
		// go-oidc 2.1's README, examples and godoc verify only the ID token of Exchange; they say
		// nothing of one in a refresh response, so the application keeps the sign-in's user.
		log.Printf("this token carries an id_token; go-oidc 2.1 documents no check of it: not verified, the signed-in user stays")
	}
}

// savingSource is the usual Go pattern for persisting tokens: a TokenSource wrapped around the
// library's, that saves each token it has not seen before.
type savingSource struct {
	inner oauth2.TokenSource
	save  func(*oauth2.Token)
	mu    sync.Mutex
	last  *oauth2.Token
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	t, err := s.inner.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t != s.last { // the library's cache hands back the same *Token until it gets a new one
		s.last = t
		s.save(t)
	}
	return t, nil
}
