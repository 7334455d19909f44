// How the application calls the resource for a `request` message: the message's method, URL,
// headers and body as an *http.Request, and the answer's status and body as the protocol reports
// them. Shared with Adapters/go-cli-oauth (its install.sh builds it beside that adapter's own
// files): what attaches the token is each library's, or its application's.
package main

import (
	"context"
	"io"
	"net/http"
	"strings"
)

// maxBody bounds what is read of a resource's answer.
const maxBody = 1 << 20

// resourceRequest is the request message's call, before the token is attached.
func resourceRequest(ctx context.Context, method, target string, headers map[string]string, body *string) (*http.Request, error) {
	var reader io.Reader
	if body != nil {
		reader = strings.NewReader(*body)
	}
	request, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return nil, err
	}
	for name, value := range headers {
		request.Header.Set(name, value)
	}
	return request, nil
}

// callResource sends the call through httpClient and reads the answer's status and body.
func callResource(httpClient *http.Client, request *http.Request) (int, string, error) {
	response, err := httpClient.Do(request)
	if err != nil {
		return 0, "", err
	}
	defer response.Body.Close()
	data, err := io.ReadAll(io.LimitReader(response.Body, maxBody))
	if err != nil {
		return 0, "", err
	}
	return response.StatusCode, string(data), nil
}
