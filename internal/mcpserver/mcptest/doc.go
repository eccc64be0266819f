// Package mcptest plays the client's side of ticoder's MCP server in tests:
// a human who answers elicited questions as a demo problem's reference
// solution behaves, and a model that answers sampling requests with the
// demo's recorded candidate programs and tests. Both plug into the SDK's
// own client (mcp.ClientOptions) and count what they were asked.
//
// Only tests (and other test helpers) import it; ticoder's own code must
// not.
package mcptest
