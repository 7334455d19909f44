// The kinds of error every Go adapter tells apart the same way, whatever its library: an error the
// adapter reported already, a refused certificate, a connection refused, dropped or timed out, the
// cause inside net/http's *url.Error, a panic. Shared with Adapters/go-cli-oauth
// (its install.sh builds it beside that adapter's own files).
package main

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
)

// reported is err as the protocol reports it: the clientError the adapter made already (already
// true), or a new one with err's words and type, whose category the library's classify sets.
func reported(err error) (e *clientError, already bool) {
	if errors.As(err, &e) {
		return e, true
	}
	return &clientError{Message: err.Error(), Type: typeName(err)}, false
}

// otherCategory is the category of an error that is none of the library's own: a refused
// certificate, a connection refused, dropped or timed out, or else an answer the library could
// not read.
func otherCategory(err error) string {
	if isTLSFailure(err) {
		return "tls"
	}
	var netErr net.Error
	var urlErr *url.Error
	if errors.As(err, &netErr) || errors.As(err, &urlErr) {
		return "transient"
	}
	return "protocol"
}

func isTLSFailure(err error) bool {
	var unknownAuthority x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var hostname x509.HostnameError
	var systemRoots x509.SystemRootsError
	return errors.As(err, &unknownAuthority) || errors.As(err, &invalid) ||
		errors.As(err, &hostname) || errors.As(err, &systemRoots)
}

// typeName is the Go type of the innermost error that says most: the cause inside a *url.Error.
func typeName(err error) string {
	var urlErr *url.Error
	if errors.As(err, &urlErr) && urlErr.Err != nil {
		return fmt.Sprintf("%T", urlErr.Err)
	}
	return fmt.Sprintf("%T", err)
}

// panicError is a panic recovered from the library: a crash, never a refusal.
func panicError(recovered interface{}) *clientError {
	return &clientError{Category: "unexpected", Type: "panic", Message: fmt.Sprint(recovered)}
}
