// Package ui is ticoder's terminal front end (`ticoder run`): it drives an
// interact.Conversation one question at a time.
//
// On a terminal, RunTUI shows a full-screen bubbletea program: the task, the
// question (`text_match("aa_bb_cc") == True ?`) with the keys y (yes, the
// test matches my intent), n (no), d (don't know / the input is invalid),
// o (give the right output, in Output mode), u (undo) and q (stop asking);
// the number of candidates and behaviour classes left; and at the end the
// ranked candidates with syntax highlighting (chroma) and a diff between the
// top two, where ↑/↓ choose the one to export. The views are laid out for
// the window (80×24 and up): the question and the key line always show, the
// rest is shortened, and the final view scrolls (pgup/pgdn). Candidates of
// equal rank are shown as tied ("=2 … (tied)"). Quitting the final view
// without writing asks first when answers were given.
//
// Without a terminal, RunPlain asks the same questions with plain prompts
// on a reader and a writer, one answer per line, so the flow can be scripted
// (`printf 'y\nn\n' | ticoder run --demo`).
//
// Both return the candidate the user chose; writing the files is the
// caller's job.
//
// ui must not hold TiCoder's rules: it shows an interact.Conversation and
// passes the user's keys to it.
package ui

// Result is how a terminal session ended.
type Result struct {
	// Candidate is the index of the chosen candidate (an api.Candidate.Index);
	// -1 when none remains.
	Candidate int
	// Aborted reports that the user quit without choosing (nothing should be
	// written).
	Aborted bool
	// Interrupted reports that the user pressed Ctrl-C (Aborted is true too).
	Interrupted bool
}
