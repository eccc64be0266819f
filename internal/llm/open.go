package llm

import (
	"database/sql"
	"log/slog"
	"net/http"
	"time"
)

// DefaultRequestTimeout is how long one attempt of a request waits for the
// server's answer when Options.RequestTimeout is 0: generous for a large
// batch of samples from a local model, short enough that a server that
// never answers is reported.
const DefaultRequestTimeout = 5 * time.Minute

// Options configure the providers Open builds. The zero value is usable:
// chat prompts, the default templates, 8 concurrent requests, the default
// retry policy, no cache.
type Options struct {
	// Style is how prompts are rendered; "" means chat. Use completion for
	// base models (vLLM serving CodeGen, StarCoder, ...).
	Style Style
	// Prompts renders requests; nil means DefaultPrompts.
	Prompts *Prompts
	// Concurrency bounds the HTTP requests in flight per provider; 0 means 8.
	Concurrency int
	// Retry is the retry policy; the zero value means the defaults.
	Retry Retry
	// HTTPClient sends the requests; nil means http.DefaultTransport's
	// client. RequestTimeout bounds each attempt whatever the client.
	HTTPClient *http.Client
	// RequestTimeout is how long one attempt may wait for the server's
	// whole answer; 0 means DefaultRequestTimeout and a negative value no
	// limit. A server that accepts the request and sends no answer in time
	// fails it with ErrNoAnswer, without a retry: the same request would
	// most likely wait as long again.
	RequestTimeout time.Duration
	// Waiting, if not nil, records the requests that have no answer yet,
	// so that a front end can say what it waits for.
	Waiting *Waiting
	// Usage, if not nil, counts the requests and tokens of every provider
	// opened with it.
	Usage *Usage
	// Getenv reads environment variables; nil means os.Getenv.
	Getenv func(string) string
	// Logger receives debug logs (URLs and models, never keys); nil means
	// slog.Default().
	Logger *slog.Logger
	// Cache, if not nil, is the database (opened with store.Open) that
	// responses of live providers are cached in. Replay is never cached.
	Cache *sql.DB
	// Offline makes a cache miss an error instead of a request. It needs
	// Cache.
	Offline bool
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.Default()
	}
	return o.Logger
}

// Open returns the provider spec names, wrapped in a response cache when
// opts.Cache is set. Environment variables are read now.
func Open(spec Spec, opts Options) (Provider, error) {
	if spec.Kind == KindReplay {
		return OpenReplay(spec.Dir, opts.Prompts)
	}
	if opts.Offline && opts.Cache == nil {
		return nil, newError(ErrNeedsCache, nil, "offline mode needs a response cache: the database an online run filled")
	}
	c, err := NewClient(spec, opts)
	if err != nil {
		return nil, err
	}
	if opts.Cache == nil {
		return c, nil
	}
	return NewCache(opts.Cache, c, CacheOptions{Offline: opts.Offline, Logger: opts.Logger})
}

// OpenString parses a --model value and opens it (see Open).
func OpenString(model string, opts Options) (Provider, error) {
	spec, err := ParseSpec(model)
	if err != nil {
		return nil, err
	}
	return Open(spec, opts)
}
