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
