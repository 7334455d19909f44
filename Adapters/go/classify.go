// What golang.org/x/oauth2 and net/http return to the application, as the protocol reports it
// (docs/adapter-protocol.md, "Error categories"). Only what the library surfaces counts: 0.3.0's
// *oauth2.RetrieveError carries the token endpoint's *http.Response and raw Body but no parsed
// RFC 6749 §5.2 code, so no answer of this adapter carries oauth_error; it carries the status,
// from which the harness derives the category (a 5xx or 429 is transient).
package main

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"golang.org/x/oauth2"
)

// classify turns an error the application got from the library or net/http into the
// protocol's clientError.
func classify(err error) *clientError {
	e, already := reported(err)
	if already {
		return e
	}
	e.Category = category(err)
	var retrieve *oauth2.RetrieveError
	if errors.As(err, &retrieve) && retrieve.Response != nil {
		e.Status = retrieve.Response.StatusCode
	}
	return e
}

func category(err error) string {
	var retrieve *oauth2.RetrieveError
	if errors.As(err, &retrieve) {
		// The token endpoint refused: an RFC 6749 §5.2 error response whose code the library did
		// not read, unless its status (reported beside) says the server is down or busy.
		return "oauth_error"
	}
	var syntax *json.SyntaxError
	var wrongType *json.UnmarshalTypeError
	var number *strconv.NumError
	if errors.As(err, &syntax) || errors.As(err, &wrongType) || errors.As(err, &number) {
		return "protocol" // a token response the library could not read
	}
	if category, ok := libraryMessageCategory(err); ok {
		return category
	}
	return otherCategory(err) // a refused certificate; refused, dropped, timed out
}

// libraryMessageCategory: the library's own conditions are plain errors.New values, told apart
// by their words only (golang.org/x/oauth2 0.3.0 exports no sentinel for them).
func libraryMessageCategory(err error) (string, bool) {
	message := err.Error()
	switch {
	case strings.Contains(message, "oauth2: token expired and refresh token is not set"):
		return "authorization_required", true // nothing to refresh with: sign in again
	case strings.Contains(message, "oauth2: server response missing access_token"):
		return "protocol", true
	case strings.Contains(message, "oauth2: cannot fetch token:"):
		return "transient", true // the token response's body could not be read
	}
	return "", false
}
