package llmtest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Message is one chat message of a request.
type Message struct {
	// Role is "system", "user" or "assistant".
	Role string `json:"role"`
	// Content is the message text.
	Content string `json:"content"`
}

// Call is one request the server received, decoded.
type Call struct {
	// Endpoint is "chat", "completions", "embeddings" or "models".
	Endpoint string
	// Path is the URL path, e.g. "/v1/chat/completions".
	Path string
	// Azure is true for /openai/deployments/... requests.
	Azure bool
	// Deployment is the Azure deployment name from the URL.
	Deployment string
	// APIVersion is the api-version query parameter.
	APIVersion string
	// Model is the body's model (for Azure, the deployment when empty).
	Model string
	// Messages are the chat messages.
	Messages []Message
	// Prompt is the completions prompt.
	Prompt string
	// Input are the texts to embed.
	Input []string
	// N is the body's n (0 when absent).
	N int
	// Temperature is the body's temperature, nil when absent.
	Temperature *float64
	// TopP is the body's top_p, nil when absent.
	TopP *float64
	// MaxTokens is max_tokens or max_completion_tokens.
	MaxTokens int
	// Stop are the stop sequences.
	Stop []string
	// Seed is the body's seed, nil when absent.
	Seed *int
	// Logprobs is true when log-probabilities were asked for.
	Logprobs bool
	// TopLogprobs is top_logprobs (chat) or logprobs (completions).
	TopLogprobs int
	// Header is the request's header.
	Header http.Header
	// Body is the raw request body.
	Body []byte
	// Context is the request's context: a responder that blocks should
	// return when it is done (the client went away).
	Context context.Context `json:"-"`
}

// Text returns the prompt text of the call: the completions prompt, or the
// last chat message.
func (c Call) Text() string {
	if len(c.Messages) > 0 {
		return c.Messages[len(c.Messages)-1].Content
	}
	return c.Prompt
}

// Want returns how many choices the call asked for (n, at least 1).
func (c Call) Want() int { return max(c.N, 1) }

// Logprob is one token with its log-probability.
type Logprob struct {
	// Token is the token text.
	Token string
	// Logprob is its natural-log probability.
	Logprob float64
}

// Reply is the server's answer to one call. The zero value answers with the
// default texts ("completion 1", ... as many as asked).
type Reply struct {
	// Texts are the choices' texts; the server returns the first n of them
	// (cycling when fewer), or only one when the server ignores n.
	Texts []string
	// FinishReason of every choice; "" means "stop".
	FinishReason string
	// Top are the most likely first tokens, reported when logprobs are asked
	// for; nil means yes -0.2, no -1.8, Yes -3.5, No -4.1, maybe -6.
	Top []Logprob
	// Embeddings answer an embeddings call; nil means vectors derived from a
	// hash of each input.
	Embeddings [][]float32
	// Status, if not 0 or 200, makes the reply an OpenAI error body with
	// ErrorMessage, ErrorType and ErrorCode.
	Status int
	// ErrorMessage, ErrorType and ErrorCode fill the error body.
	ErrorMessage, ErrorType, ErrorCode string
	// Header is added to the response (e.g. Retry-After).
	Header map[string]string
	// Raw, if set, is written as the body verbatim (malformed JSON).
	Raw string
	// Truncate cuts the body in half while promising its full length.
	Truncate bool
}

// Responder computes the reply to a call. It runs on the server's goroutines
// and must be safe for concurrent use.
type Responder func(Call) Reply

// Fixed answers every generation with texts (cycling through them).
func Fixed(texts ...string) Responder {
	return func(Call) Reply { return Reply{Texts: texts} }
}

// Silent accepts every call and never answers it: the handler returns only
// when the client gives up (or the server closes), as a stuck model server
// does.
func Silent() Responder {
	return func(c Call) Reply {
		<-c.Context.Done()
		return Reply{}
	}
}

// Config configures a Server.
type Config struct {
	// Respond computes replies; nil means the zero Reply for every call.
	Respond Responder
	// IgnoreN makes the server answer one choice whatever n is (as Ollama).
	IgnoreN bool
	// APIKey, if set, must come as "Authorization: Bearer KEY" or "api-key:
	// KEY", or the server answers 401.
	APIKey string
	// Models, if set, are the only model (or deployment) names served;
	// others get 404 model_not_found (DeploymentNotFound for Azure).
	Models []string
}

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	// URL is the OpenAI-style base URL, ending in /v1.
	URL string
	// Root is the server's root URL: the Azure endpoint.
	Root string
	// HTTP is the underlying httptest server.
	HTTP *httptest.Server

	cfg   Config
	mu    sync.Mutex
	calls []Call
	queue []Reply
}

// New starts a server that t's cleanup closes.
func New(t testing.TB, cfg Config) *Server {
	t.Helper()
	s := &Server{cfg: cfg}
	s.HTTP = httptest.NewServer(http.HandlerFunc(s.serve))
	s.Root = s.HTTP.URL
	s.URL = s.HTTP.URL + "/v1"
	t.Cleanup(s.HTTP.Close)
	return s
}

// Enqueue queues replies that answer the next calls, one each, before the
// responder is consulted again (e.g. a 429, then a 500).
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// Calls returns a copy of the calls received so far, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Count returns how many calls reached endpoint ("chat", "completions",
// "embeddings", "models"), or all calls when endpoint is "".
func (s *Server) Count(endpoint string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if endpoint == "" || c.Endpoint == endpoint {
			n++
		}
	}
	return n
}

// Reset forgets the recorded calls and queued replies.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls, s.queue = nil, nil
}

func (s *Server) record(c Call) (Reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	if len(s.queue) > 0 {
		r := s.queue[0]
		s.queue = s.queue[1:]
		return r, true
	}
	return Reply{}, false
}

// wireRequest is the union of the request bodies.
type wireRequest struct {
	Model               string          `json:"model"`
	Messages            []Message       `json:"messages"`
	Prompt              json.RawMessage `json:"prompt"`
	Input               json.RawMessage `json:"input"`
	N                   int             `json:"n"`
	Temperature         *float64        `json:"temperature"`
	TopP                *float64        `json:"top_p"`
	MaxTokens           int             `json:"max_tokens"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	Stop                json.RawMessage `json:"stop"`
	Seed                *int            `json:"seed"`
	Logprobs            json.RawMessage `json:"logprobs"`
	TopLogprobs         int             `json:"top_logprobs"`
}

// stringsOf reads a JSON string or array of strings.
func stringsOf(raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	return many
}

// route maps a path to an endpoint name and, for Azure, the deployment.
func route(path string) (endpoint, deployment string, azure bool) {
	if rest, ok := strings.CutPrefix(path, "/openai/deployments/"); ok {
		dep, suffix, _ := strings.Cut(rest, "/")
		return endpointOf("/" + suffix), dep, true
	}
	if rest, ok := strings.CutPrefix(path, "/v1"); ok {
		return endpointOf(rest), "", false
	}
	return "", "", false
}

func endpointOf(suffix string) string {
	switch suffix {
	case "/chat/completions":
		return "chat"
	case "/completions":
		return "completions"
	case "/embeddings":
		return "embeddings"
	case "/models":
		return "models"
	}
	return ""
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	endpoint, deployment, azure := route(r.URL.Path)
	call, err := decodeCall(r, endpoint, deployment, azure)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error(), "invalid_request_error", "")
		return
	}
	queued, fromQueue := s.record(call)
	switch {
	case endpoint == "":
		writeError(w, http.StatusNotFound, "Resource not found", "invalid_request_error", "404")
		return
	case azure && call.APIVersion == "":
		writeError(w, http.StatusNotFound, "Resource not found: missing api-version", "invalid_request_error", "404")
		return
	case !s.authorised(r, azure):
		writeError(w, http.StatusUnauthorized, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
		return
	case endpoint == "models":
		s.writeModels(w)
		return
	case !s.serves(call.Model):
		if azure {
			writeError(w, http.StatusNotFound, "The API deployment for this resource does not exist.", "", "DeploymentNotFound")
		} else {
			writeError(w, http.StatusNotFound, fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", call.Model), "invalid_request_error", "model_not_found")
		}
		return
	}
	reply := queued
	if !fromQueue && s.cfg.Respond != nil {
		reply = s.cfg.Respond(call)
	}
	if r.Context().Err() != nil {
		return // the client went away while the responder waited
	}
	s.writeReply(w, call, reply)
}

func decodeCall(r *http.Request, endpoint, deployment string, azure bool) (Call, error) {
	c := Call{Endpoint: endpoint, Path: r.URL.Path, Azure: azure, Deployment: deployment,
		APIVersion: r.URL.Query().Get("api-version"), Header: r.Header.Clone(), Context: r.Context()}
	if r.Method != http.MethodPost {
		return c, nil
	}
	var wr wireRequest
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&wr); err != nil {
		return c, fmt.Errorf("request body is not JSON: %v", err)
	}
	body, _ := json.Marshal(wr)
	c.Body = body
	c.Model, c.Messages, c.N = wr.Model, wr.Messages, wr.N
	if azure && c.Model == "" {
		c.Model = deployment
	}
	if p := stringsOf(wr.Prompt); len(p) > 0 {
		c.Prompt = p[0]
	}
	c.Input = stringsOf(wr.Input)
	c.Temperature, c.TopP, c.Seed = wr.Temperature, wr.TopP, wr.Seed
	c.MaxTokens = max(wr.MaxTokens, wr.MaxCompletionTokens)
	c.Stop = stringsOf(wr.Stop)
	switch endpoint {
	case "chat":
		var on bool
		_ = json.Unmarshal(wr.Logprobs, &on)
		c.Logprobs, c.TopLogprobs = on, wr.TopLogprobs
	case "completions":
		var k int
		if json.Unmarshal(wr.Logprobs, &k) == nil && len(wr.Logprobs) > 0 && string(wr.Logprobs) != "null" {
			c.Logprobs, c.TopLogprobs = true, k
		}
	}
	return c, nil
}

func (s *Server) authorised(r *http.Request, azure bool) bool {
	if s.cfg.APIKey == "" {
		return true
	}
	if azure {
		return r.Header.Get("api-key") == s.cfg.APIKey
	}
	return r.Header.Get("Authorization") == "Bearer "+s.cfg.APIKey
}

func (s *Server) serves(model string) bool {
	if len(s.cfg.Models) == 0 {
		return true
	}
	for _, m := range s.cfg.Models {
		if m == model {
			return true
		}
	}
	return false
}

func (s *Server) writeModels(w http.ResponseWriter) {
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
	}
	out := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, m := range s.cfg.Models {
		out.Data = append(out.Data, model{ID: m, Object: "model", OwnedBy: "llmtest"})
	}
	writeJSON(w, http.StatusOK, out, nil, false)
}

func writeError(w http.ResponseWriter, status int, msg, typ, code string) {
	body := map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	writeJSON(w, status, body, nil, false)
}

func writeJSON(w http.ResponseWriter, status int, v any, header map[string]string, truncate bool) {
	b, _ := json.Marshal(v)
	writeBody(w, status, b, header, truncate)
}

func writeBody(w http.ResponseWriter, status int, b []byte, header map[string]string, truncate bool) {
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(status)
	if truncate {
		b = b[:len(b)/2]
	}
	_, _ = w.Write(b)
}

// Vector returns the default embedding of text: a unit vector of
// EmbeddingDim components derived from its hash.
func Vector(text string) []float32 { return hashVector(text, EmbeddingDim) }

// hashVector derives a unit vector of dim components from text.
func hashVector(text string, dim int) []float32 {
	v := make([]float32, dim)
	var norm float64
	for i := range v {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%d:%s", i, text)))
		x := float64(int32(binary.LittleEndian.Uint32(sum[:4]))) / math.MaxInt32
		v[i] = float32(x)
		norm += x * x
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(norm))
	}
	return v
}
