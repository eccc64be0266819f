package estimate

import (
	"database/sql"
	"slices"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/qe"
)

// SetupOptions say how NewSetup builds a Setup, as plain values.
type SetupOptions struct {
	// Examples is the labelled retrieval pool (nil for none).
	Examples *qe.ExampleSet
	// Runner and JavaRunner run Python and Java candidates (nil for none).
	Runner, JavaRunner execute.Runner
	// AgreeTimeout bounds one call of one candidate for agree and combo.
	AgreeTimeout time.Duration
	// Embedder is "lexical" (fitted on Examples) or "api" (EmbedModel).
	Embedder string
	// EmbedModel is the embeddings endpoint of the api embedder, as for
	// llm.OpenString.
	EmbedModel string
	// Weighting is the lexical term weighting: "bm25" or "tfidf".
	Weighting string
	// Estimators are the estimators the Setup will build; a judge is opened
	// only when one of them needs it (NeedsJudge).
	Estimators []string
	// Model is the judge model, as for llm.OpenString, and Style its prompt
	// style (llm.ParseStyle).
	Model, Style string
	// Cache, if not nil, caches LLM and embedding responses (llm.Options).
	Cache *sql.DB
	// RequestTimeout and Waiting are the judge's and the embedder's
	// llm.Options.RequestTimeout and llm.Options.Waiting.
	RequestTimeout time.Duration
	Waiting        *llm.Waiting
	// CacheEmbedder, if not nil, wraps the embedder (such as
	// qestore.Store.CachedEmbedder).
	CacheEmbedder func(qe.Embedder) qe.Embedder
}

// NewSetup builds the estimators' environment from o. Bad or missing
// options are reported with ErrUnknownEmbedder, ErrUnknownWeighting,
// ErrNeedsEmbedModel, ErrNeedsJudge or ErrBadStyle (use errors.Is).
func NewSetup(o SetupOptions) (*Setup, error) {
	s := &Setup{Examples: o.Examples, Runner: o.Runner, JavaRunner: o.JavaRunner, Agree: Agree{Timeout: o.AgreeTimeout}}
	cache := o.CacheEmbedder
	if cache == nil {
		cache = func(e qe.Embedder) qe.Embedder { return e }
	}
	switch o.Embedder {
	case "lexical":
		opts := qe.DefaultLexicalOptions()
		switch o.Weighting {
		case "bm25":
			opts.Weighting = qe.BM25
		case "tfidf":
			opts.Weighting = qe.TFIDF
		default:
			return nil, ErrUnknownWeighting
		}
		var probs, sols []string
		if o.Examples != nil {
			for _, t := range o.Examples.Tasks {
				probs = append(probs, t.Prompt)
				sols = append(sols, t.Codes()...)
			}
		}
		s.Lexical = qe.FitLexical(probs, sols, opts)
		s.Embedder = cache(s.Lexical)
	case "api":
		if o.EmbedModel == "" {
			return nil, ErrNeedsEmbedModel
		}
		p, err := llm.OpenString(o.EmbedModel, llm.Options{Cache: o.Cache, RequestTimeout: o.RequestTimeout, Waiting: o.Waiting})
		if err != nil {
			return nil, err
		}
		s.Embedder = cache(&qe.APIEmbedder{Client: p, Model: p.Endpoint().String()})
	default:
		return nil, ErrUnknownEmbedder
	}
	if slices.ContainsFunc(o.Estimators, NeedsJudge) {
		if o.Model == "" {
			return nil, ErrNeedsJudge
		}
		style, err := llm.ParseStyle(o.Style)
		if err != nil {
			return nil, styleError{err}
		}
		p, err := llm.OpenString(o.Model, llm.Options{Cache: o.Cache, Style: style, RequestTimeout: o.RequestTimeout, Waiting: o.Waiting})
		if err != nil {
			return nil, err
		}
		s.Judge = LLMJudge{Provider: p}
	}
	return s, nil
}

// styleError is llm.ParseStyle's error, matching ErrBadStyle.
type styleError struct{ err error }

func (e styleError) Error() string        { return e.err.Error() }
func (e styleError) Unwrap() error        { return e.err }
func (e styleError) Is(target error) bool { return target == ErrBadStyle }
