// The device flow as the library's example has an application run it (device/examples_test.go,
// ExampleRequestCode): device.RequestCode for the code the user is shown, then device.Wait, the
// library's polling loop, until it returns the token or an error. Flow.DeviceFlow
// (oauth_device.go:97-145), which GitHub's CLI calls through DetectFlow, is these two calls with
// the display between them, but makes its WaitOptions itself, so its loop could only run on the
// real clock; hence the two calls here, with the clock of poller.go.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/cli/oauth/api"
	"github.com/cli/oauth/device"
)

// loopAnswerBudget bounds how long a device_poll waits for the loop's next step: one poll, one
// HTTP exchange (httpTimeout) and the reading of its answer, below the profile's 15 s.
const loopAnswerBudget = 12 * time.Second

// deviceFlow is one device authorization: the code the library obtained, and its polling loop,
// started by the first device_poll and stepped by each later one.
type deviceFlow struct {
	code    *device.CodeResponse
	waits   chan time.Duration // the loop's poller asks for a wait
	resumed chan time.Time     // the next device_poll's `now` lets it go on
	done    chan loopResult    // device.Wait returned
	ended   chan struct{}      // closed when the scenario ends
	started bool
}

type loopResult struct {
	token *api.AccessToken
	err   error
}

// pollStep is what one device_poll found: a wait (the loop goes on) or the loop's result.
type pollStep struct {
	wait   *time.Duration
	result loopResult
}

// startDevice is the first half: device.RequestCode with the client's id and no scopes (the
// suite's provider asks for none; RequestCode sends the scope parameter, empty).
func (c *client) startDevice() (*deviceFlow, error) {
	code, err := device.RequestCode(c.http, c.env.DeviceAuthorizationEndpoint, c.env.ClientID, nil)
	if err != nil {
		return nil, err
	}
	return &deviceFlow{
		code:    code,
		waits:   make(chan time.Duration),
		resumed: make(chan time.Time),
		done:    make(chan loopResult, 1),
		ended:   make(chan struct{}),
	}, nil
}

// poll is one device_poll at virtual time now: the first starts device.Wait, each later one lets
// its poller out of the wait it asked for; then it waits for the loop to ask for its next wait
// or to return.
func (c *client) poll(f *deviceFlow, now time.Time) pollStep {
	if !f.started {
		f.started = true
		opts := device.WaitOptions{ClientID: c.env.ClientID, DeviceCode: f.code}
		withVirtualPoller(&opts, now, f.waits, f.resumed, f.ended)
		go func() {
			token, err := device.Wait(context.Background(), c.http, c.env.TokenEndpoint, opts)
			f.done <- loopResult{token: token, err: err}
		}()
	} else {
		select {
		case f.resumed <- now:
		case result := <-f.done:
			return pollStep{result: result}
		}
	}
	select {
	case wait := <-f.waits:
		return pollStep{wait: &wait}
	case result := <-f.done:
		return pollStep{result: result}
	case <-time.After(loopAnswerBudget):
		return pollStep{result: loopResult{err: &clientError{Category: "transient",
			Message: fmt.Sprintf("the library's polling loop neither polled nor returned within %v", loopAnswerBudget)}}}
	}
}

// end lets a loop still waiting return (errScenarioEnded), so its goroutine ends.
func (f *deviceFlow) end() {
	close(f.ended)
}
