package llm

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in      string
		want    Spec
		wantErr string
	}{
		{in: "openai:gpt-4o-mini", want: Spec{Kind: KindOpenAI, Model: "gpt-4o-mini"}},
		{in: "ollama:qwen2.5-coder:7b", want: Spec{Kind: KindOllama, Model: "qwen2.5-coder:7b"}},
		{in: "ollama:hf.co/bartowski/Qwen:Q4_K_M", want: Spec{Kind: KindOllama, Model: "hf.co/bartowski/Qwen:Q4_K_M"}},
		{in: "vllm:Salesforce/codegen-16B-mono@http://gpu1:8000/v1",
			want: Spec{Kind: KindVLLM, Model: "Salesforce/codegen-16B-mono", BaseURL: "http://gpu1:8000/v1"}},
		{in: "ollama:llama3:8b@http://10.0.0.2:11434/v1",
			want: Spec{Kind: KindOllama, Model: "llama3:8b", BaseURL: "http://10.0.0.2:11434/v1"}},
		{in: "openai:ft:gpt-4o-mini:org::abc", want: Spec{Kind: KindOpenAI, Model: "ft:gpt-4o-mini:org::abc"}},
		{in: "openai:user@corp-model@https://llm.corp/v1", want: Spec{Kind: KindOpenAI, Model: "user@corp-model", BaseURL: "https://llm.corp/v1"}},
		{in: "azure:gpt4o-deploy", want: Spec{Kind: KindAzure, Model: "gpt4o-deploy"}},
		{in: "OpenAI:gpt-4o", want: Spec{Kind: KindOpenAI, Model: "gpt-4o"}},
		{in: "replay:../shared/data/samples/humaneval-codegen16b", want: Spec{Kind: KindReplay, Dir: "../shared/data/samples/humaneval-codegen16b"}},
		{in: "replay:C:\\runs@http://x", want: Spec{Kind: KindReplay, Dir: "C:\\runs@http://x"}},
		{in: "llamacpp:local", want: Spec{Kind: KindLlamaCpp, Model: "local"}},
		{in: "gpt-4o-mini", wantErr: "has no provider kind"},
		{in: "anthropic:claude", wantErr: `unknown provider kind "anthropic": use KIND:MODEL`},
		{in: "olama:x", wantErr: `unknown provider kind "olama": did you mean "ollama"? (kinds: azure, llamacpp, lmstudio, ollama, openai, replay, vllm)`},
		{in: "vlm:x", wantErr: `did you mean "vllm"?`},
		{in: "Lmstudo:x", wantErr: `did you mean "lmstudio"?`},
		{in: "openai:", wantErr: "names no model"},
		{in: "vllm:@http://h:8000/v1", wantErr: "names no model"},
		{in: "replay:", wantErr: "names no directory"},
		{in: "vllm:m@http://", wantErr: "not an http(s) URL"},
		{in: "vllm:m@http://user:secret@h/v1", wantErr: "must not carry credentials"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSpec(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseSpec(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("error leaks the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSpec(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSpec(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// FuzzParseSpec checks that ParseSpec never panics, that what it accepts
// prints back to a string it parses identically, and that accepted specs are
// well formed.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{
		"openai:gpt-4o-mini", "ollama:qwen2.5-coder:7b", "vllm:NAME@http://host:8000/v1",
		"azure:DEPLOYMENT", "replay:DIR", "vllm:a@b@https://h/v1", ":", "openai:@", "replay:",
		"ollama:x@http://[::1]:11434/v1", "vllm:m@http://h:99999999999/v1", "x:y:z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseSpec(s)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") && !strings.ContainsAny(s, "\n\r") {
				t.Errorf("ParseSpec(%q): multi-line error %q", s, err)
			}
			return
		}
		again, err := ParseSpec(spec.String())
		if err != nil {
			t.Fatalf("ParseSpec(%q) = %+v, but its String %q does not parse: %v", s, spec, spec.String(), err)
		}
		if diff := cmp.Diff(spec, again); diff != "" {
			t.Errorf("round trip of %q (-first +second):\n%s", s, diff)
		}
		if spec.Kind == KindReplay {
			if spec.Dir == "" || spec.Model != "" {
				t.Errorf("ParseSpec(%q) = %+v: replay needs a directory only", s, spec)
			}
			return
		}
		if _, ok := kinds[spec.Kind]; !ok || spec.Model == "" {
			t.Errorf("ParseSpec(%q) = %+v: unknown kind or empty model", s, spec)
		}
		if spec.BaseURL != "" && checkBaseURL(spec.BaseURL) != nil {
			t.Errorf("ParseSpec(%q) accepted base URL %q", s, spec.BaseURL)
		}
	})
}

func TestResolveEnvironment(t *testing.T) {
	tests := []struct {
		name    string
		spec    string
		env     map[string]string
		wantURL string
		wantKey string
		wantVer string
		keyErr  string
		wantErr string
	}{
		{name: "openai default", spec: "openai:gpt-4o-mini", env: map[string]string{"OPENAI_API_KEY": "sk-1"},
			wantURL: "https://api.openai.com/v1", wantKey: "sk-1"},
		{name: "openai base url from env", spec: "openai:m", env: map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://localhost:8080/v1/"},
			wantURL: "http://localhost:8080/v1", wantKey: "k"},
		{name: "openai without key fails at call time", spec: "openai:m", wantURL: "https://api.openai.com/v1", keyErr: "set OPENAI_API_KEY"},
		{name: "spec url beats env", spec: "openai:m@http://a:1/v1", env: map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://b:2/v1"},
			wantURL: "http://a:1/v1", wantKey: "k"},
		{name: "ollama default", spec: "ollama:qwen2.5-coder:7b", wantURL: "http://localhost:11434/v1", wantKey: "ollama"},
		{name: "ollama host only", spec: "ollama:m", env: map[string]string{"OLLAMA_HOST": "gpu1"}, wantURL: "http://gpu1:11434/v1", wantKey: "ollama"},
		{name: "ollama bind all", spec: "ollama:m", env: map[string]string{"OLLAMA_HOST": "0.0.0.0:11500"}, wantURL: "http://localhost:11500/v1", wantKey: "ollama"},
		{name: "ollama url", spec: "ollama:m", env: map[string]string{"OLLAMA_HOST": "https://ollama.corp/"}, wantURL: "https://ollama.corp:11434/v1", wantKey: "ollama"},
		{name: "vllm default", spec: "vllm:m", wantURL: "http://localhost:8000/v1"},
		{name: "vllm key", spec: "vllm:m@http://h:8000/v1", env: map[string]string{"VLLM_API_KEY": "v"}, wantURL: "http://h:8000/v1", wantKey: "v"},
		{name: "azure", spec: "azure:dep", env: map[string]string{"AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com/", "AZURE_OPENAI_API_KEY": "az"},
			wantURL: "https://r.openai.azure.com", wantKey: "az", wantVer: DefaultAzureAPIVersion},
		{name: "azure version", spec: "azure:dep", env: map[string]string{"AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com", "AZURE_OPENAI_API_KEY": "az", "OPENAI_API_VERSION": "2025-01-01"},
			wantURL: "https://r.openai.azure.com", wantKey: "az", wantVer: "2025-01-01"},
		{name: "azure without endpoint", spec: "azure:dep", env: map[string]string{"AZURE_OPENAI_API_KEY": "az"}, wantErr: "set AZURE_OPENAI_ENDPOINT"},
		{name: "bad env url", spec: "vllm:m", env: map[string]string{"VLLM_BASE_URL": "localhost:8000"}, wantErr: "set VLLM_BASE_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := ParseSpec(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			r, err := resolve(spec, func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("resolve error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := [3]string{r.baseURL, r.apiKey, r.apiVersion}
			if diff := cmp.Diff([3]string{tt.wantURL, tt.wantKey, tt.wantVer}, got); diff != "" {
				t.Errorf("(-want +got) [url key version]:\n%s", diff)
			}
			if tt.keyErr == "" && r.keyErr != nil || tt.keyErr != "" && (r.keyErr == nil || !strings.Contains(r.keyErr.Error(), tt.keyErr)) {
				t.Errorf("key error = %v, want %q", r.keyErr, tt.keyErr)
			}
		})
	}
}

// TestParseSpecErrBadSpec: every malformed selector matches ErrBadSpec (the
// CLI's usage error), and, as llm is shared by the CLI, the web server and
// MCP, names no command-line flag.
func TestParseSpecErrBadSpec(t *testing.T) {
	for _, in := range []string{"gpt-4o-mini", "replay:", "nope:x", "openai:"} {
		_, err := ParseSpec(in)
		if !errors.Is(err, ErrBadSpec) {
			t.Errorf("ParseSpec(%q) = %v, want an ErrBadSpec", in, err)
		}
		if err != nil && strings.Contains(err.Error(), "--") {
			t.Errorf("ParseSpec(%q): %q names a flag", in, err)
		}
	}
}
