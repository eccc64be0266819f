// Package python is ticoder's Python language: programs are prompt +
// completion, value tests are `assert CALL == EXPECTED`.
//
// python must not run code: the Python pool (execute.Pool) runs its
// programs.
package python
