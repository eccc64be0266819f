// Command ticoder makes LLM-generated code trustworthy: it runs candidate
// programs against generated tests in a sandbox, asks the user the most
// discriminating questions, and ranks the candidates by the answers.
package main
