// The *http.Client the application hands its library (golang.org/x/oauth2 through the
// oauth2.HTTPClient context key; github.com/cli/oauth as its httpClient argument, in
// Adapters/go-cli-oauth, whose install.sh builds this file beside its own): it trusts the
// scenario's CA file (and only it) and bounds every call in time.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// httpTimeout bounds one HTTP exchange. A message may make three (the library's two-attempt
// token request, then the call), so 4 s each stays below the profile's 15 s operation timeout.
const httpTimeout = 4 * time.Second

func newHTTPClient(caFile *string) (*http.Client, error) {
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != nil && *caFile != "" {
		pem, err := os.ReadFile(*caFile)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("no certificate in %s", *caFile)
		}
		tlsConfig.RootCAs = pool
	}
	transport := &http.Transport{
		Proxy:                 nil, // the provider is on loopback; no proxy from the environment
		DialContext:           (&net.Dialer{Timeout: httpTimeout}).DialContext,
		TLSClientConfig:       tlsConfig,
		TLSHandshakeTimeout:   httpTimeout,
		ResponseHeaderTimeout: httpTimeout,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       30 * time.Second,
	}
	return &http.Client{Transport: loggingTransport{transport}, Timeout: httpTimeout}, nil
}

// loggingTransport writes each exchange to stderr (the report shows it beside the timeline):
// the method, the URL and the Authorization scheme the library chose, never the credential.
type loggingTransport struct {
	base http.RoundTripper
}

func (t loggingTransport) RoundTrip(request *http.Request) (*http.Response, error) {
	scheme := "none"
	if authorization := request.Header.Get("Authorization"); authorization != "" {
		scheme = strings.SplitN(authorization, " ", 2)[0]
	}
	response, err := t.base.RoundTrip(request)
	if err != nil {
		log.Printf("http %s %s (Authorization: %s) -> %v", request.Method, request.URL, scheme, err)
		return nil, err
	}
	log.Printf("http %s %s (Authorization: %s) -> %d", request.Method, request.URL, scheme, response.StatusCode)
	return response, nil
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the wrapped transport.
func (t loggingTransport) CloseIdleConnections() {
	if closer, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		closer.CloseIdleConnections()
	}
}
