// Package langs lists ticoder's languages by name, for the packages above
// internal/lang that take a problem's language as a name
// (dataset.Problem.Language).
package langs

import (
	"strings"

	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/lang/python"
)

var table = map[string]lang.Language{"": python.Python{}, "python": python.Python{}, "java": java.Java{}}

// Get returns the language called name ("" is Python).
func Get(name string) (lang.Language, bool) {
	l, ok := table[strings.ToLower(name)]
	return l, ok
}
