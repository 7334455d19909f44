// What github.com/cli/oauth and net/http return to the application, as the protocol reports it
// (docs/adapter-protocol/messages.md, "Error categories"). The library's one error type is
// *api.Error (api/form.go:43-59): Code, the RFC 6749 §5.2 `error` of the answer (empty when the
// answer had none, or was not JSON or a form), and ResponseCode, its HTTP status.
package main

import (
	"context"
	"errors"
	"strconv"

	"github.com/cli/oauth/api"
	"github.com/cli/oauth/device"
)

func classify(err error) *clientError {
	e, already := reported(err)
	if already {
		return e
	}
	var apiError *api.Error
	if errors.As(err, &apiError) {
		e.OAuthError = apiError.Code
		e.Status = apiError.ResponseCode
		if apiError.Code == "" {
			// An answer with no code (a 5xx page, a 400 with no body): its status, reported
			// beside, says more when it is a 5xx or 429.
			e.Category = "protocol"
		}
		return e
	}
	e.Category = category(err)
	return e
}

func category(err error) string {
	switch {
	case errors.Is(err, device.ErrUnsupported):
		// RequestCode's verdict on a 401, 403, 404 or 422, a 400 device_flow_disabled or
		// unauthorized_client, or a 200 without verification_uri (device_flow.go:73-78): the
		// status and code are not surfaced, only that the server "does not implement Device flow".
		return "protocol"
	case errors.Is(err, context.DeadlineExceeded):
		// The poller's context, which ends expires_in after the loop started (poller.go:16):
		// the device code expired on the library's own clock; the user must start again.
		return "authorization_required"
	}
	var number *strconv.NumError
	if errors.As(err, &number) {
		return "protocol" // RequestCode could not read interval or expires_in (device_flow.go:84-92)
	}
	// A refused certificate; refused, dropped, timed out; or else an answer the library could not
	// read (its JSON decoder's error).
	return otherCategory(err)
}
