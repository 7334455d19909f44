// Empty: its presence lets processstate.go declare a function without a body (go:linkname).
