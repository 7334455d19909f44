// The device loop's clock. device.Wait (device/device_flow.go:131-175) waits between polls with a
// poller it makes from the interval and the code's lifetime: intervalPoller (device/poller.go),
// a real time.Timer of `interval` before every poll, and a context that ends `expires_in` after
// the loop started. The library takes no clock and no sleep function, and libfaketime cannot
// reach a Go program. Its one seam is WaitOptions.newPoller, the unexported field its own tests
// set (device/device_flow_test.go:262-265, makeFakePoller). The adapter sets it the same way
// (reflect and unsafe, from outside the package) to a poller that does what intervalPoller does,
// on the harness's virtual clock: given the interval and lifetime the library computed, each
// Wait is one `device_poll` answered with that wait, and it returns when the harness, having
// moved the clock by that much, sends the next one. Which polls are sent, what they carry, how
// each answer is read and when the loop stops are the library's own code.
package main

import (
	"context"
	"errors"
	"reflect"
	"time"
	"unsafe"

	"github.com/cli/oauth/device"
)

// errScenarioEnded ends a loop left waiting when its scenario ends (`end`, `reset`).
var errScenarioEnded = errors.New("the scenario ended")

// virtualPoller is intervalPoller on the virtual clock. Its waits go out on waits and come
// back, with the virtual `now` of the next device_poll, on resumed.
type virtualPoller struct {
	interval time.Duration
	deadline time.Time // the loop's start + expires_in: intervalPoller's context.WithTimeout
	now      time.Time // the virtual time the loop is at
	waits    chan<- time.Duration
	resumed  <-chan time.Time
	ended    <-chan struct{}
}

// Wait is intervalPoller.Wait: `interval`, unless the code's lifetime ends first, in which case
// the wait lasts until then and the context's error (context.DeadlineExceeded) ends the loop.
// intervalPoller's timer starts after its context's, so on a tie the context wins, as here.
func (p *virtualPoller) Wait() error {
	remaining := p.deadline.Sub(p.now)
	if remaining < 0 {
		remaining = 0
	}
	wait := p.interval
	expires := remaining <= wait
	if expires {
		wait = remaining
	}
	select {
	case p.waits <- wait:
	case <-p.ended:
		return errScenarioEnded
	}
	select {
	case now := <-p.resumed:
		p.now = now
	case <-p.ended:
		return errScenarioEnded
	}
	if expires {
		return context.DeadlineExceeded
	}
	return nil
}

// Cancel is intervalPoller.Cancel (which device.Wait never calls).
func (p *virtualPoller) Cancel() {}

// withVirtualPoller sets opts.newPoller to a factory of virtualPollers that start at start,
// as device_flow_test.go sets it to makeFakePoller(n). The factory's type names the package's
// unexported poller interface, so it is made with reflect.MakeFunc.
func withVirtualPoller(opts *device.WaitOptions, start time.Time, waits chan<- time.Duration, resumed <-chan time.Time, ended <-chan struct{}) {
	field := reflect.ValueOf(opts).Elem().FieldByName("newPoller")
	if !field.IsValid() {
		panic("device.WaitOptions has no newPoller field: not github.com/cli/oauth 1.0.x")
	}
	factoryType := field.Type()
	pollerType := factoryType.Out(1)
	factory := reflect.MakeFunc(factoryType, func(args []reflect.Value) []reflect.Value {
		ctx := args[0].Interface().(context.Context)
		interval := args[1].Interface().(time.Duration)
		expiresIn := args[2].Interface().(time.Duration)
		p := &virtualPoller{interval: interval, deadline: start.Add(expiresIn), now: start,
			waits: waits, resumed: resumed, ended: ended}
		return []reflect.Value{reflect.ValueOf(&ctx).Elem(), reflect.ValueOf(p).Convert(pollerType)}
	})
	reflect.NewAt(factoryType, unsafe.Pointer(field.UnsafeAddr())).Elem().Set(factory)
}
