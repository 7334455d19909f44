// The one piece of golang.org/x/oauth2 state that outlives the objects an application makes:
// internal.RetrieveToken's cache of which client authentication style (HTTP Basic or form
// fields) worked for each token URL, a package-level map. With the default AuthStyleAutoDetect
// the library tries Basic first and, on any failure, the same request again with form fields,
// then remembers the style that worked. A new scenario (reset) and a relaunched application
// (restart) must start without it, as a new process does, or a provider that happens to reuse an
// earlier scenario's port would inherit that scenario's answer. The library exports the reset
// only to its own packages (internal.ResetAuthCache); the linkname below calls that function
// as it is, nothing of the library is changed. linkname.s (empty) lets this body-less
// declaration compile.
package main

import (
	_ "unsafe" // for go:linkname

	_ "golang.org/x/oauth2" // links golang.org/x/oauth2/internal
)

//go:linkname resetAuthStyleCache golang.org/x/oauth2/internal.ResetAuthCache
func resetAuthStyleCache()
