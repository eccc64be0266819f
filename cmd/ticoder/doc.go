// Command ticoder makes LLM-generated code trustworthy: it runs candidate
// programs against generated tests in a sandbox, asks the user the most
// discriminating questions, and ranks the candidates by the answers.
//
// Package main only wires: each command (cmd_VERB.go) parses its flags,
// opens what it needs (the execution engine, the model), calls the internal
// package that holds the rules — generate (gen, and through interact run,
// serve and mcp), benchmark (eval), check, qe, interact, server, mcpserver —
// and prints the result. Words for the terminal (flag names in errors, exit
// statuses) are added here; the internal packages never import this one.
//
// It must not hold a rule that another front end needs too: such a rule
// belongs in the internal package the command calls.
package main
