package sandbox

// Main turns this process into a sandbox init when it was started as one, and
// returns immediately otherwise. It must be the first call in main (and in
// TestMain of packages whose tests start sandboxes).
func Main() {
	// Implemented in the sandbox work; see doc.go.
}
