// Two clocks, and the conversion between them.
//
// The harness runs each scenario on a virtual clock (it starts at 2026-01-01 and jumps at advance
// steps; every message carries it as `now`). golang.org/x/oauth2 reads the real clock and takes
// none: internal.RetrieveToken sets Token.Expiry = time.Now() + expires_in, and Token.Valid
// compares Expiry with time.Now() (through the package variable timeNow). libfaketime cannot
// reach Go, whose runtime reads the clock through the vDSO, not libc.
//
// So the adapter keeps the application's token in the virtual frame between messages, and hands
// the library, for the length of one message, the same token with its Expiry moved into the real
// frame: the remaining lifetime is the same in both. Within a message the library works in its
// own (real) frame alone, and every refresh decision is its own Valid() on its own clock.
package main

import (
	"math"
	"time"
)

// frame is one message's pairing of the virtual `now` with the real clock.
type frame struct {
	virtualNow time.Time
}

// frameAt is the frame of a message whose `now` is seconds since the Unix epoch (to the ms).
func frameAt(now float64) frame {
	return frame{virtualNow: time.UnixMilli(int64(math.Round(now * 1000))).UTC()}
}

// toReal gives a virtual-frame expiry the same remaining lifetime on the real clock, measured
// now. A zero expiry (no expires_in: the library's "never expires") stays zero.
func (f frame) toReal(virtualExpiry time.Time) time.Time {
	if virtualExpiry.IsZero() {
		return virtualExpiry
	}
	return time.Now().Add(virtualExpiry.Sub(f.virtualNow))
}

// toVirtual moves the expiry of a token the library has just obtained into the virtual frame.
// The library computed it as time.Now() + expires_in with expires_in a whole number of seconds
// (it parses it into an int32), a few microseconds ago; rounding the remaining lifetime to the
// second recovers expires_in exactly, so the virtual expiry is `now` + expires_in, as a client
// on the virtual clock (frozen during the message) would have computed it.
func (f frame) toVirtual(realExpiry time.Time) time.Time {
	if realExpiry.IsZero() {
		return realExpiry
	}
	remaining := time.Until(realExpiry).Round(time.Second)
	return f.virtualNow.Add(remaining)
}

// unixSeconds is t as the protocol's Unix seconds (ms precision), or nil for a zero time.
func unixSeconds(t time.Time) interface{} {
	if t.IsZero() {
		return nil
	}
	return float64(t.UnixMilli()) / 1000
}
