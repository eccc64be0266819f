package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
)

// protocolVersions are the MCP versions the server speaks: those in which a
// server may send elicitation and sampling requests during a tool call.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26"}

// Options configure a Server.
type Options struct {
	// Builder prepares sessions; its Generator (from --model) may be nil,
	// in which case the client's model is used through sampling when the
	// client offers it, and else only demos work. DatasetFiles must be off.
	Builder *interact.Builder
	// Runner runs code in the sandbox (an *execute.Pool); it also extracts
	// code from the client model's answers.
	Runner execute.Runner
	// Defaults are the session settings a tool call does not override.
	Defaults interact.Options
	// SamplingCodes and SamplingTests are how many code and test samples to
	// ask the client's model for when a call does not say (defaults 8 and 4:
	// clients may ask the human to approve each request).
	SamplingCodes, SamplingTests int
	// WriteFiles writes the result's files into the client's first
	// workspace root (file:// roots only), under ticoder-out/.
	WriteFiles bool
	// Root is the directory that file arguments are relative to (ticoder
	// mcp --root); empty: the client's first file:// workspace root.
	Root string
	// OpenProject, when not nil, prepares a session on the function
	// function of file (an absolute path inside root, free of symlinks): the
	// target and a runner that runs programs as its module. Without it, file
	// arguments are refused.
	OpenProject func(ctx context.Context, file, function, root string) (*interact.ModuleTarget, execute.Runner, error)
	// MaxSessions bounds the sessions kept in memory (default 64).
	MaxSessions int
	// Version is reported to clients.
	Version string
	// Logger receives the server's logs (default slog.Default()).
	Logger *slog.Logger
}

// Server is ticoder's MCP server. It is safe for concurrent use; one Server
// serves any number of client sessions.
type Server struct {
	opts  Options
	log   *slog.Logger
	store *store
	mcp   *mcp.Server
}

// New returns a server with its tools registered.
func New(opts Options) (*Server, error) {
	if opts.Builder == nil || opts.Runner == nil {
		return nil, fmt.Errorf("mcpserver: Options.Builder and Options.Runner are required")
	}
	if opts.Builder.DatasetFiles {
		return nil, fmt.Errorf("mcpserver: Builder.DatasetFiles must be off: clients must not choose files to read")
	}
	if opts.SamplingCodes <= 0 {
		opts.SamplingCodes = 8
	}
	if opts.SamplingTests <= 0 {
		opts.SamplingTests = 4
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{opts: opts, log: opts.Logger, store: newStore(opts.MaxSessions)}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "ticoder", Title: "ticoder", Version: opts.Version}, &mcp.ServerOptions{
		Instructions:              instructions,
		Logger:                    s.log,
		Capabilities:              &mcp.ServerCapabilities{},
		SupportedProtocolVersions: protocolVersions,
	})
	s.addTools()
	return s, nil
}

// instructions tell the agent when and how to use the tools.
const instructions = `ticoder clarifies what a Python or Java function should do before you trust code for it.
Before writing a function whose intent is ambiguous, call clarify with its stub (or a description and signature):
ticoder generates candidate implementations and tests, runs them in a sandbox, and asks the human the few
yes/no questions that split the candidates best. You get back ranked code and a pytest file of the tests the
human approved. If the result has "pending" instead, ask the human the pending question in your own words,
then call answer_question, and finish when done. check_code checks your own code against approved tests.`

// MCP returns the underlying SDK server.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client over t (e.g. &mcp.StdioTransport{}) until the client
// disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	if err := s.mcp.Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return ctx.Err()
}

// HTTPHandler returns the Streamable HTTP handler serving every client
// session; idle sessions end after idle (0: never). Wrap it with access
// checks (server.Protect) before serving it.
func (s *Server) HTTPHandler(idle time.Duration) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Logger: s.log, SessionTimeout: idle, MaxRequestBodyBytes: maxBody})
}

// maxBody bounds an HTTP request's body.
const maxBody = 4 << 20
