package llm

import (
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
)

// Kind is the kind of model server a Spec names.
type Kind string

// The provider kinds.
const (
	// KindOpenAI is api.openai.com or any server set by OPENAI_BASE_URL.
	KindOpenAI Kind = "openai"
	// KindAzure is an Azure OpenAI deployment.
	KindAzure Kind = "azure"
	// KindOllama is an Ollama server's OpenAI-compatible API.
	KindOllama Kind = "ollama"
	// KindVLLM is a vLLM server.
	KindVLLM Kind = "vllm"
	// KindLlamaCpp is llama.cpp's llama-server.
	KindLlamaCpp Kind = "llamacpp"
	// KindLMStudio is LM Studio's local server.
	KindLMStudio Kind = "lmstudio"
	// KindReplay serves recorded generations from a directory.
	KindReplay Kind = "replay"
)

// kindInfo holds what differs between the OpenAI-compatible kinds: where the
// base URL and key come from and what a user should do when they are wrong.
type kindInfo struct {
	defaultURL string
	urlEnv     string // environment variable that overrides the base URL
	keyEnv     []string
	needsKey   bool
	listModels string // how to list the served models; %s is the base URL
}

var kinds = map[Kind]kindInfo{
	KindOpenAI: {
		defaultURL: "https://api.openai.com/v1", urlEnv: "OPENAI_BASE_URL",
		keyEnv: []string{"OPENAI_API_KEY"}, needsKey: true,
		listModels: `curl -s %s/models -H "Authorization: Bearer $OPENAI_API_KEY"`,
	},
	KindAzure: {
		urlEnv: "AZURE_OPENAI_ENDPOINT", keyEnv: []string{"AZURE_OPENAI_API_KEY"}, needsKey: true,
		listModels: "az cognitiveservices account deployment list -g GROUP -n ACCOUNT (the deployment name goes after azure:)",
	},
	KindOllama: {
		defaultURL: "http://localhost:11434/v1", urlEnv: "OLLAMA_HOST",
		listModels: "ollama list (or fetch it with ollama pull)",
	},
	KindVLLM: {
		defaultURL: "http://localhost:8000/v1", urlEnv: "VLLM_BASE_URL",
		keyEnv:     []string{"VLLM_API_KEY", "OPENAI_API_KEY"},
		listModels: "curl -s %s/models",
	},
	KindLlamaCpp: {
		defaultURL: "http://localhost:8080/v1", urlEnv: "LLAMACPP_BASE_URL",
		keyEnv:     []string{"LLAMACPP_API_KEY"},
		listModels: "curl -s %s/models",
	},
	KindLMStudio: {
		defaultURL: "http://localhost:1234/v1", urlEnv: "LMSTUDIO_BASE_URL",
		keyEnv:     []string{"LMSTUDIO_API_KEY"},
		listModels: "lms ls, or curl -s %s/models",
	},
}

// Kinds returns the kinds ParseSpec accepts, sorted.
func Kinds() []Kind {
	out := []Kind{KindReplay}
	for k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Spec is a parsed --model value.
type Spec struct {
	// Kind is the provider kind.
	Kind Kind
	// Model is the model name (for Azure: the deployment name). Model names
	// may contain ':' (ollama's tags) and '@'.
	Model string
	// BaseURL is the API base URL given in the spec after '@' (e.g.
	// "vllm:NAME@http://host:8000/v1"); empty means the environment or the
	// kind's default.
	BaseURL string
	// Dir is replay's directory.
	Dir string
}

// ParseSpec parses a model selector of the form KIND:MODEL[@BASEURL] or
// replay:DIR. The first ':' ends the kind, so model names keep their own
// colons ("ollama:qwen2.5-coder:7b"); a base URL follows the last
// "@http://" or "@https://".
// Its errors match ErrBadSpec.
func ParseSpec(s string) (Spec, error) {
	spec, err := parseSpec(s)
	if err != nil {
		return Spec{}, &Error{Kind: ErrBadSpec, Msg: err.Error(), Err: err}
	}
	return spec, nil
}

func parseSpec(s string) (Spec, error) {
	const hint = "use KIND:MODEL, e.g. openai:gpt-4o-mini, ollama:qwen2.5-coder:7b, vllm:NAME@http://host:8000/v1, azure:DEPLOYMENT or replay:DIR"
	kindStr, rest, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Spec{}, fmt.Errorf("model %q has no provider kind: %s", s, hint)
	}
	kind := Kind(strings.ToLower(kindStr))
	if kind == KindReplay {
		if rest == "" {
			return Spec{}, fmt.Errorf("model %q names no directory: use replay:DIR with DIR holding codes.jsonl and tests.jsonl", s)
		}
		return Spec{Kind: KindReplay, Dir: rest}, nil
	}
	if _, ok := kinds[kind]; !ok {
		return Spec{}, unknownKind(s, kindStr, hint)
	}
	spec := Spec{Kind: kind, Model: rest}
	if i := lastURLAt(rest); i >= 0 {
		spec.Model, spec.BaseURL = rest[:i], rest[i+1:]
		if err := checkBaseURL(spec.BaseURL); err != nil {
			return Spec{}, fmt.Errorf("model %s:%s@...: %w", kind, spec.Model, err)
		}
	}
	if spec.Model == "" {
		return Spec{}, fmt.Errorf("model %q names no model: %s", s, hint)
	}
	if strings.ContainsAny(spec.Model, "\n\r\t") {
		return Spec{}, fmt.Errorf("model %q: the model name contains a control character", s)
	}
	return spec, nil
}

// unknownKind says that kindStr is no provider kind, suggesting the closest
// one when it looks like a typo ("olama" → "ollama").
func unknownKind(spec, kindStr, hint string) error {
	names := make([]string, 0, len(kinds)+1)
	best, bestDist := "", 3 // suggest within two edits
	for _, k := range Kinds() {
		names = append(names, string(k))
		if d := editDistance(strings.ToLower(kindStr), string(k)); d < bestDist {
			best, bestDist = string(k), d
		}
	}
	known := strings.Join(names, ", ")
	if best != "" {
		return fmt.Errorf("model %q: unknown provider kind %q: did you mean %q? (kinds: %s)", spec, kindStr, best, known)
	}
	return fmt.Errorf("model %q: unknown provider kind %q: %s (kinds: %s)", spec, kindStr, hint, known)
}

// editDistance returns the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// lastURLAt returns the index of the '@' that starts a base URL in s, or -1.
func lastURLAt(s string) int {
	return max(strings.LastIndex(s, "@http://"), strings.LastIndex(s, "@https://"))
}

func checkBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("base URL is not a valid URL like http://host:8000/v1")
	}
	if u.User != nil {
		return fmt.Errorf("base URL %s must not carry credentials: put the key in the environment", u.Redacted())
	}
	if u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("base URL %q is not an http(s) URL like http://host:8000/v1", u.Redacted())
	}
	return nil
}

// String returns the spec in the form ParseSpec reads.
func (s Spec) String() string {
	if s.Kind == KindReplay {
		return "replay:" + s.Dir
	}
	if s.BaseURL != "" {
		return fmt.Sprintf("%s:%s@%s", s.Kind, s.Model, s.BaseURL)
	}
	return fmt.Sprintf("%s:%s", s.Kind, s.Model)
}

// resolved is a spec with its environment read: where to connect and with
// which key.
type resolved struct {
	spec       Spec
	baseURL    string
	apiKey     string // never logged, never in errors
	apiVersion string // Azure only
	info       kindInfo
	keyErr     error // set when a needed key is missing; returned by every request
}

// DefaultAzureAPIVersion is the Azure OpenAI API version used when
// OPENAI_API_VERSION is not set (the first GA version with logprobs).
const DefaultAzureAPIVersion = "2024-10-21"

// resolve reads the environment for s (at call time) and checks that what is
// needed is there. Its errors match ErrBadSpec.
func resolve(s Spec, getenv func(string) string) (resolved, error) {
	r, err := resolveEnv(s, getenv)
	if err != nil {
		return resolved{}, &Error{Kind: ErrBadSpec, Msg: err.Error(), Err: err}
	}
	return r, nil
}

// resolveEnv is resolve; its errors are plain.
func resolveEnv(s Spec, getenv func(string) string) (resolved, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	info, ok := kinds[s.Kind]
	if !ok {
		return resolved{}, fmt.Errorf("provider kind %q does not use an OpenAI-compatible server", s.Kind)
	}
	r := resolved{spec: s, info: info, baseURL: s.BaseURL}
	if r.baseURL == "" {
		r.baseURL = baseURLFromEnv(s.Kind, getenv(info.urlEnv))
	}
	if r.baseURL == "" {
		r.baseURL = info.defaultURL
	}
	for _, k := range info.keyEnv {
		if v := getenv(k); v != "" {
			r.apiKey = v
			break
		}
	}
	switch s.Kind {
	case KindAzure:
		if r.baseURL == "" {
			return resolved{}, fmt.Errorf("azure:%s: set AZURE_OPENAI_ENDPOINT to your resource's endpoint, e.g. https://NAME.openai.azure.com", s.Model)
		}
		r.apiVersion = getenv("OPENAI_API_VERSION")
		if r.apiVersion == "" {
			r.apiVersion = DefaultAzureAPIVersion
		}
	case KindOllama:
		if r.apiKey == "" {
			r.apiKey = "ollama" // ignored by Ollama, but some proxies want a bearer token
		}
	}
	r.baseURL = strings.TrimRight(r.baseURL, "/")
	if err := checkBaseURL(r.baseURL); err != nil {
		return resolved{}, fmt.Errorf("%s: %w (set %s)", s, err, info.urlEnv)
	}
	if info.needsKey && r.apiKey == "" {
		// Not fatal yet: an offline run served from the cache needs no key.
		r.keyErr = newError(ErrUnauthorized, nil, "%s needs an API key: set %s", s, info.keyEnv[0])
	}
	return r, nil
}

// baseURLFromEnv turns an environment value into a base URL. OLLAMA_HOST is a
// host[:port] or a URL without /v1 (Ollama's own convention).
func baseURLFromEnv(kind Kind, v string) string {
	v = strings.TrimSpace(v)
	if v == "" || kind != KindOllama {
		return v
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil {
		return v
	}
	if u.Port() == "" {
		u.Host += ":11434"
	}
	if u.Hostname() == "0.0.0.0" { // the server binds all interfaces; connect locally
		u.Host = "localhost:" + u.Port()
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/v1") {
		u.Path += "/v1"
	}
	return u.String()
}
