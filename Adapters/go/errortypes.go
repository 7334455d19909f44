// The kinds of error every Go adapter tells apart the same way, whatever its library: a refused
// certificate, the cause inside net/http's *url.Error, a panic. Shared with Adapters/go-cli-oauth
// (its install.sh builds it beside that adapter's own files).
package main

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
)

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
