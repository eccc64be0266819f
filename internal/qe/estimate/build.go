package estimate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/qe"
)

// Errors of a missing ingredient or a bad option, which a front end may add
// its own advice to (which flag supplies it); their messages name no
// command-line flag.
var (
	// ErrNeedsDevSplit: tuning k without a dev split.
	ErrNeedsDevSplit = errors.New("tuning k needs a dev split")
	// ErrNeedsExamples: a retrieval estimator without a labelled example set or an
	// embedder.
	ErrNeedsExamples = errors.New("retrieval needs a labelled pool and an embedder")
	// ErrNeedsJudge: an estimator that asks an LLM judge, without a model.
	ErrNeedsJudge = errors.New("this estimator asks an LLM judge, and no model was given")
	// ErrUnknownEmbedder: SetupOptions.Embedder is neither "lexical" nor "api".
	ErrUnknownEmbedder = errors.New("unknown embedder: want lexical or api")
	// ErrUnknownWeighting: SetupOptions.Weighting is neither "bm25" nor "tfidf".
	ErrUnknownWeighting = errors.New("unknown lexical term weighting: want bm25 or tfidf")
	// ErrNeedsEmbedModel: the api embedder without an embedding model.
	ErrNeedsEmbedModel = errors.New("the api embedder needs an embedding model")
	// ErrBadStyle: SetupOptions.Style is not a prompt style (llm.ParseStyle);
	// the error carrying it keeps llm's message.
	ErrBadStyle = errors.New("unknown prompt style")
)

// Estimators lists the estimator names New accepts.
func Estimators() []string {
	return []string{"knn", "els", "tls", "agree", "combo", "icl", "zs", "constant"}
}

// NeedsExamples reports whether the estimator retrieves from a labelled example set.
func NeedsExamples(name string) bool { return name == "knn" || name == "combo" || name == "icl" }

// NeedsRunner reports whether the estimator executes code.
func NeedsRunner(name string) bool { return name == "agree" || name == "combo" }

// NeedsJudge reports whether the estimator asks an LLM.
func NeedsJudge(name string) bool { return name == "icl" || name == "zs" }

// ComboKNNWeight is the weight of knn in combo = agree + w·knn. It was set
// by hand (knn only has to break agree's ties and add a per-problem
// difficulty prior); results are flat for w between 0.05 and 0.5.
const ComboKNNWeight = 0.25

// Setup holds what estimators are built from. Fields an estimator does not
// need may be nil (see NeedsExamples, NeedsRunner, NeedsJudge). A Setup is safe
// for concurrent use.
type Setup struct {
	// Examples is the labelled example set.
	Examples *qe.ExampleSet
	// Embedder embeds problems and solutions for retrieval and els (the
	// lexical model or an API embedder, possibly cached).
	Embedder qe.Embedder
	// Lexical, if set, is used by tls for token overlap; otherwise tls embeds
	// lines with Embedder.
	Lexical *qe.Lexical
	Runner  execute.Runner
	// JavaRunner runs Java candidates (agree and combo on Java problems).
	JavaRunner execute.Runner
	Judge      Judge
	// Temperature is knn's τ (default 0.05).
	Temperature float64
	// Agree configures the agree part of agree and combo (Runner is filled
	// in).
	Agree Agree

	once  sync.Once
	index *Index
	err   error
}

// Index returns the retrieval index of Examples, built on first use.
func (s *Setup) Index(ctx context.Context) (*Index, error) {
	s.once.Do(func() {
		if s.Examples == nil || s.Embedder == nil {
			s.err = ErrNeedsExamples
			return
		}
		s.index, s.err = NewIndex(ctx, s.Examples, s.Embedder)
	})
	return s.index, s.err
}

// New builds the named estimator with k examples per label and weight α
// (both ignored by estimators that do not retrieve).
func (s *Setup) New(ctx context.Context, name string, k int, alpha Alpha) (Estimator, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if NeedsRunner(name) && s.Runner == nil {
		return nil, fmt.Errorf("estimator %s runs code: it needs the execution engine", name)
	}
	if NeedsJudge(name) && s.Judge == nil {
		return nil, fmt.Errorf("estimator %s: %w (a server that returns top_logprobs)", name, ErrNeedsJudge)
	}
	var ix *Index
	if NeedsExamples(name) {
		var err error
		if ix, err = s.Index(ctx); err != nil {
			return nil, fmt.Errorf("estimator %s: %w", name, err)
		}
	}
	tau := s.Temperature
	if tau == 0 {
		tau = 0.05
	}
	agree := s.Agree
	agree.Runner = s.Runner
	agree.JavaRunner = s.JavaRunner
	switch name {
	case "knn":
		return &KNN{Index: ix, Alpha: alpha, K: k, Temperature: tau}, nil
	case "els":
		if s.Embedder == nil {
			return nil, fmt.Errorf("estimator els needs an embedder")
		}
		return &ELS{Embedder: s.Embedder}, nil
	case "tls":
		if s.Lexical == nil && s.Embedder == nil {
			return nil, fmt.Errorf("estimator tls needs an embedder")
		}
		return &TLS{Lexical: s.Lexical, Embedder: s.Embedder}, nil
	case "agree":
		return &agree, nil
	case "combo":
		return &Sum{Parts: []Estimator{&agree, &KNN{Index: ix, Alpha: alpha, K: k, Temperature: tau}}, Weights: []float64{1, ComboKNNWeight}}, nil
	case "icl":
		return &ICL{Index: ix, Judge: s.Judge, Alpha: alpha, K: k}, nil
	case "zs":
		return &ICL{Judge: s.Judge}, nil
	case "constant":
		return Constant{}, nil
	}
	return nil, fmt.Errorf("unknown estimator %q (known: %s)", name, strings.Join(Estimators(), ", "))
}

// Sum is a weighted sum of estimators' scores. Cost: the sum of its parts'.
type Sum struct {
	Parts   []Estimator
	Weights []float64
}

// Name implements Estimator.
func (e *Sum) Name() string {
	parts := make([]string, len(e.Parts))
	for i, p := range e.Parts {
		parts[i] = fmt.Sprintf("%g·%s", e.Weights[i], p.Name())
	}
	return strings.Join(parts, " + ")
}

// Score implements Estimator.
func (e *Sum) Score(ctx context.Context, p qe.Problem, candidates []string) ([]float64, error) {
	out := make([]float64, len(candidates))
	for i, part := range e.Parts {
		s, err := part.Score(ctx, p, candidates)
		if err != nil {
			return nil, err
		}
		if len(s) != len(candidates) {
			return nil, fmt.Errorf("%s returned %d scores for %d candidates", part.Name(), len(s), len(candidates))
		}
		for j := range out {
			out[j] += e.Weights[i] * s[j]
		}
	}
	return out, nil
}

// ParseAlpha parses an α: a number in [0, 1] or the variant names p, ps, s
// (also fs-p, fs-ps, fs-s).
func ParseAlpha(s string) (Alpha, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "p", "fs-p":
		return FSP, nil
	case "ps", "fs-ps":
		return FSPS, nil
	case "s", "fs-s":
		return FSS, nil
	}
	// ParseFloat, not Sscanf: Sscanf accepts "NaN" (which passes the range
	// check and makes every σ NaN) and ignores trailing garbage ("0.5x").
	a, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(a >= 0 && a <= 1) {
		return 0, fmt.Errorf("α %q: want a number in [0, 1] or p, ps, s", s)
	}
	return Alpha(a), nil
}

// VariantName returns the paper's name of an α: FS-P, FS-PS, FS-S, or
// FS(α=…).
func VariantName(a Alpha) string {
	switch a {
	case FSP:
		return "FS-P"
	case FSPS:
		return "FS-PS"
	case FSS:
		return "FS-S"
	}
	return fmt.Sprintf("FS(α=%g)", float64(a))
}
