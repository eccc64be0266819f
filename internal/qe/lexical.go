package qe

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"math"
	"sort"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// Field says which half of a (problem, solution) pair a text is; embedders
// may model the two differently.
type Field int

// The two fields of a pair.
const (
	ProblemField Field = iota
	SolutionField
)

// String names the field.
func (f Field) String() string {
	if f == ProblemField {
		return "problem"
	}
	return "solution"
}

// Embedder maps texts to unit vectors. Implementations must be safe for
// concurrent use.
type Embedder interface {
	// Name identifies the vector space (model and fitted state): vectors of
	// embedders with equal names are interchangeable, so caches key by it.
	Name() string
	// Embed returns one vector per text.
	Embed(ctx context.Context, field Field, texts []string) ([]Vector, error)
}

// Weighting is a term-weighting scheme of the lexical embedder.
type Weighting int

// The lexical weighting schemes.
const (
	// TFIDF: (1 + ln tf) · idf with the smoothed idf ln((1+N)/(1+df)) + 1.
	TFIDF Weighting = iota
	// BM25: idf · tf·(k1+1)/(tf + k1·(1−b+b·len/avglen)), k1 = 1.2, b = 0.75,
	// with idf = ln(1 + (N−df+0.5)/(df+0.5)).
	BM25
)

// LexicalOptions configure the lexical embedder.
type LexicalOptions struct {
	Tokenizer TokenizerOptions
	Weighting Weighting
}

// DefaultLexicalOptions are the settings used by the CLI.
func DefaultLexicalOptions() LexicalOptions {
	return LexicalOptions{Tokenizer: TokenizerOptions{WholeIdentifiers: true}}
}

// termModel holds document frequencies of one field's corpus.
type termModel struct {
	n      float64
	df     map[uint64]int
	avgLen float64
}

// Lexical is the built-in embedder that needs no model: sparse TF-IDF (or
// BM25) vectors over code-aware tokens (see Tokenize), with document
// frequencies fitted separately on the problems and on the solutions of a
// corpus. Tokens are hashed (FNV-1a, 64 bits), so unseen tokens need no
// vocabulary: they get the idf of a term seen in no document. It is safe for
// concurrent use.
type Lexical struct {
	opts  LexicalOptions
	field [2]termModel
	name  string
}

// FitLexical fits a lexical embedder on the problem and solution texts of a
// corpus (normally the training example set; duplicates count once per text given).
func FitLexical(problems, solutions []string, opts LexicalOptions) *Lexical {
	l := &Lexical{opts: opts}
	h := sha256.New()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(opts.Weighting)<<8|boolBits(opts.Tokenizer.Syntax.Name() == "java")<<2|boolBits(opts.Tokenizer.Operators)<<1|boolBits(opts.Tokenizer.WholeIdentifiers))
	h.Write(buf[:])
	for f, docs := range [2][]string{problems, solutions} {
		m := termModel{df: make(map[uint64]int)}
		total := 0
		for _, d := range docs {
			toks := Tokenize(d, opts.Tokenizer)
			total += len(toks)
			seen := make(map[uint64]bool, len(toks))
			for _, t := range toks {
				k := TokenKey(t)
				if !seen[k] {
					seen[k] = true
					m.df[k]++
				}
			}
			h.Write([]byte(d))
			h.Write([]byte{0})
		}
		m.n = float64(len(docs))
		if len(docs) > 0 {
			m.avgLen = float64(total) / float64(len(docs))
		}
		l.field[f] = m
		h.Write([]byte{0xff})
	}
	l.name = "lexical:" + hex.EncodeToString(h.Sum(nil)[:8])
	return l
}

func boolBits(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// TokenKey hashes a token to its sparse dimension (the key of its weight in
// a sparse Vector).
func TokenKey(t string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(t))
	return h.Sum64()
}

// Name identifies the fitted model: "lexical:" and a fingerprint of the
// options and the corpus.
func (l *Lexical) Name() string { return l.name }

// Options returns the options the model was fitted with.
func (l *Lexical) Options() LexicalOptions { return l.opts }

// ForSyntax returns the embedder for texts written in sx. A lexical embedder
// is copied to tokenise with sx's comments and literals (its fitted
// document frequencies are kept; its name then says the syntax, since its
// vectors differ); any other embedder reads text as text and is returned
// as it is.
func ForSyntax(emb Embedder, sx srcscan.Syntax) Embedder {
	l, ok := emb.(*Lexical)
	if !ok || l.opts.Tokenizer.Syntax.Name() == sx.Name() {
		return emb
	}
	c := *l
	c.opts.Tokenizer.Syntax = sx
	c.name = l.name + ":" + sx.Name()
	return &c
}

// Embed returns the unit-length weighted term vectors of the texts.
func (l *Lexical) Embed(_ context.Context, field Field, texts []string) ([]Vector, error) {
	out := make([]Vector, len(texts))
	for i, t := range texts {
		out[i] = l.Vector(field, t)
	}
	return out, nil
}

// Vector returns the unit-length weighted term vector of one text.
func (l *Lexical) Vector(field Field, text string) Vector {
	return NewSparse(l.Weights(field, Tokenize(text, l.opts.Tokenizer)))
}

// Weights returns the (unnormalised) weight of each distinct token key.
func (l *Lexical) Weights(field Field, toks []string) map[uint64]float64 {
	tf := make(map[uint64]int, len(toks))
	for _, t := range toks {
		tf[TokenKey(t)]++
	}
	w := make(map[uint64]float64, len(tf))
	for k, c := range tf {
		w[k] = l.weight(field, k, c, len(toks))
	}
	return w
}

// IDF returns the inverse document frequency of a token key in a field.
func (l *Lexical) IDF(field Field, key uint64) float64 {
	m := &l.field[field]
	df := float64(m.df[key])
	if l.opts.Weighting == BM25 {
		return math.Log(1 + (m.n-df+0.5)/(df+0.5))
	}
	return math.Log((1+m.n)/(1+df)) + 1
}

func (l *Lexical) weight(field Field, key uint64, tf, docLen int) float64 {
	idf := l.IDF(field, key)
	if l.opts.Weighting == BM25 {
		const k1, b = 1.2, 0.75
		avg := l.field[field].avgLen
		norm := 1.0
		if avg > 0 {
			norm = 1 - b + b*float64(docLen)/avg
		}
		t := float64(tf)
		return idf * t * (k1 + 1) / (t + k1*norm)
	}
	return (1 + math.Log(float64(tf))) * idf
}

// TopTerms returns the n highest-weighted tokens of a text, for debugging.
func (l *Lexical) TopTerms(field Field, text string, n int) []string {
	toks := Tokenize(text, l.opts.Tokenizer)
	byKey := make(map[uint64]string, len(toks))
	for _, t := range toks {
		byKey[TokenKey(t)] = t
	}
	w := l.Weights(field, toks)
	keys := make([]uint64, 0, len(w))
	for k := range w {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if w[keys[i]] != w[keys[j]] {
			return w[keys[i]] > w[keys[j]]
		}
		return byKey[keys[i]] < byKey[keys[j]]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = byKey[k]
	}
	return out
}
