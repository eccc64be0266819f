// Package langs lists ticoder's languages by name, for the packages above
// internal/lang that take a problem's language as a name
// (dataset.Problem.Language): each language's lang.Language, and where its
// programs run — on the Python pool (execute.Pool, or a Remote), or on
// workers of the language's own, started by its execute.Starter. A new
// language is one entry of this table. langs must not hold a language's
// rules itself: they live in its own packages.
package langs
