// Package mcpserver serves ticoder's interactive workflow over the Model
// Context Protocol (MCP), so that AI coding agents and editors (Claude Code,
// VS Code, Cursor, …) can clarify a function with the human before they
// trust its code. It is built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) and serves one mcp.Server over
// stdio (`ticoder mcp`) or Streamable HTTP (`ticoder mcp --http`).
//
// Tools, each with typed input and output schemas:
//
//   - clarify runs the whole loop of package interact on a demo, a stub, a
//     description with a signature, or a dataset task. When the client
//     supports elicitation every question goes straight to the human through
//     it (yes / no / invalid input / "it should return …", with the
//     candidates' values as choices) and the agent gets only the result;
//     without elicitation clarify returns the first question for the agent
//     to relay, like start_clarification.
//   - start_clarification, answer_question, undo and finish let an agent
//     drive the loop itself, one question at a time, by session id.
//   - check_code runs given code against approved tests in the sandbox.
//   - estimate_quality ranks given candidates with the execution-based
//     quality estimator of package qe (no model needed).
//
// Candidates and tests come from the built-in demos, from the model the
// server was started with (--model), or, when neither applies and the client
// supports sampling, from the client's own model through
// sampling/createMessage (SamplingProvider). Long steps send progress
// notifications when the call carries a progress token, and every step
// honours cancellation: the call's context reaches the sandbox, which kills
// what it runs.
//
// The server speaks MCP protocol versions up to 2025-11-25 (clients on later
// versions fall back to them during initialization), because it asks the
// human and the client's model in the middle of a tool call, which the
// 2026-07-28 version replaced with multi-round-trip results.
//
// Everything a client sends is untrusted: sizes are bounded, values the human
// types are accepted only as Python literals (interact.CheckValue, in the
// sandbox), code runs only in the sandbox, and dataset tasks are named, never
// read from a path the client chooses.
//
// mcpserver must not hold TiCoder's rules: it maps MCP's tools, elicitation
// and sampling onto package interact.
package mcpserver
