package estimate

import (
	"errors"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/qetest"
)

// countingCache records the embedders NewSetup hands to CacheEmbedder.
type countingCache struct{ wrapped []string }

func (c *countingCache) wrap(e qe.Embedder) qe.Embedder {
	c.wrapped = append(c.wrapped, e.Name())
	return e
}

func TestNewSetup(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{Respond: func(llmtest.Call) llmtest.Reply { return llmtest.Reply{} }})
	model := "vllm:judge@" + srv.URL
	pool := qetest.TinyExamples()
	_, styleErr := llm.ParseStyle("poetry")
	cases := []struct {
		name    string
		o       SetupOptions
		wantErr error
		errText string // the error's whole message, when set
		lexical bool   // want a fitted lexical model
		judge   bool   // want a judge
		embed   string // prefix of the embedder's name
	}{
		{name: "lexical bm25", o: SetupOptions{Examples: pool, Embedder: "lexical", Weighting: "bm25", Estimators: []string{"knn"}}, lexical: true, embed: "lexical"},
		{name: "lexical tfidf without examples", o: SetupOptions{Embedder: "lexical", Weighting: "tfidf", Estimators: []string{"els"}}, lexical: true, embed: "lexical"},
		{name: "bad weighting", o: SetupOptions{Embedder: "lexical", Weighting: "idf"}, wantErr: ErrUnknownWeighting},
		{name: "bad weighting ignored for api", o: SetupOptions{Embedder: "api", EmbedModel: model, Weighting: "idf"}, embed: "api:"},
		{name: "api without model", o: SetupOptions{Embedder: "api", Weighting: "bm25"}, wantErr: ErrNeedsEmbedModel},
		{name: "unknown embedder", o: SetupOptions{Embedder: "magic", Weighting: "bm25"}, wantErr: ErrUnknownEmbedder},
		{name: "judge without model", o: SetupOptions{Embedder: "lexical", Weighting: "bm25", Estimators: []string{"els", "zs"}}, wantErr: ErrNeedsJudge},
		{name: "bad style keeps llm's message", o: SetupOptions{Embedder: "lexical", Weighting: "bm25", Estimators: []string{"icl"}, Model: model, Style: "poetry"},
			wantErr: ErrBadStyle, errText: styleErr.Error()},
		{name: "bad style ignored without a judge", o: SetupOptions{Embedder: "lexical", Weighting: "bm25", Estimators: []string{"knn"}, Style: "poetry"}, lexical: true, embed: "lexical"},
		{name: "judge", o: SetupOptions{Embedder: "lexical", Weighting: "bm25", Estimators: []string{"zs"}, Model: model, Style: "completion"}, lexical: true, judge: true, embed: "lexical"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cache := &countingCache{}
			c.o.CacheEmbedder = cache.wrap
			s, err := NewSetup(c.o)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("error %v, want %v", err, c.wantErr)
				}
				if c.errText != "" && err.Error() != c.errText {
					t.Errorf("message %q, want %q", err, c.errText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (s.Lexical != nil) != c.lexical || (s.Judge != nil) != c.judge {
				t.Errorf("lexical %v judge %v, want %v and %v", s.Lexical != nil, s.Judge != nil, c.lexical, c.judge)
			}
			if len(cache.wrapped) != 1 || !strings.HasPrefix(cache.wrapped[0], c.embed) || s.Embedder == nil {
				t.Errorf("cached embedders %v, want one named %s…", cache.wrapped, c.embed)
			}
			if s.Examples != c.o.Examples || s.Agree.Timeout != c.o.AgreeTimeout {
				t.Errorf("examples or agree timeout not passed through")
			}
		})
	}
}
