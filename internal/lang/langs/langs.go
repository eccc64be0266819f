// Package langs lists ticoder's languages by name, for the packages above
// internal/lang that take a problem's language as a name
// (dataset.Problem.Language): each language's lang.Language, and where its
// programs run — on the Python pool (execute.Pool, or a Remote), or on
// workers of the language's own, started by its execute.Starter. A new
// language is one entry of this table. langs must not hold a language's
// rules itself: they live in its own packages.
package langs

import (
	"strings"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/lang/python"
)

// entry is one language of the table.
type entry struct {
	lang lang.Language
	// start starts the executor of the language's programs; nil where the
	// Python pool runs them.
	start execute.Starter
}

var table = map[string]entry{
	"":       {python.Python{}, nil},
	"python": {python.Python{}, nil},
	"java":   {java.Java{}, jvm.Start},
}

// Get returns the language called name ("" is Python).
func Get(name string) (lang.Language, bool) {
	e, ok := table[strings.ToLower(name)]
	return e.lang, ok
}

// Starter returns how to start the executor of the programs of the
// language called name, and false where the Python pool runs them (or no
// language has that name).
func Starter(name string) (execute.Starter, bool) {
	e := table[strings.ToLower(name)]
	return e.start, e.start != nil
}
