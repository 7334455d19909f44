package main

import (
	"testing"
	"time"
)

// A token the library obtains during a message keeps exactly its expires_in in the virtual frame,
// and goes back to the library, at a later message, with the remaining lifetime it has there.
func TestFrameConversionKeepsLifetimes(t *testing.T) {
	issued := frameAt(1767225600)                       // 2026-01-01T00:00:00Z
	libraryExpiry := time.Now().Add(3600 * time.Second) // what internal.RetrieveToken computes
	time.Sleep(2 * time.Millisecond)                    // the adapter sees it a little later
	virtual := issued.toVirtual(libraryExpiry)
	if want := issued.virtualNow.Add(time.Hour); !virtual.Equal(want) {
		t.Fatalf("virtual expiry %v, want %v", virtual, want)
	}
	later := frameAt(1767225600 + 3595.5) // 4.5 s of life left: inside the library's 10 s delta
	real := later.toReal(virtual)
	if left := time.Until(real); left < 4400*time.Millisecond || left > 4500*time.Millisecond {
		t.Fatalf("remaining real lifetime %v, want about 4.5s", left)
	}
}

func TestZeroExpiryStaysZero(t *testing.T) {
	f := frameAt(1767225600)
	if !f.toVirtual(time.Time{}).IsZero() || !f.toReal(time.Time{}).IsZero() {
		t.Fatal("a token without expires_in must stay without expiry (never expires)")
	}
}
