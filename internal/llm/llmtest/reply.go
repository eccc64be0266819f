package llmtest

import (
	"fmt"
	"net/http"
	"strings"
)

// defaultTop is the first-token distribution reported when a reply sets none.
var defaultTop = []Logprob{{"yes", -0.2}, {"no", -1.8}, {"Yes", -3.5}, {"No", -4.1}, {"maybe", -6}}

// EmbeddingDim is the length of the default embedding vectors.
const EmbeddingDim = 8

func (s *Server) writeReply(w http.ResponseWriter, call Call, reply Reply) {
	if reply.Raw != "" {
		writeBody(w, statusOr200(reply.Status), []byte(reply.Raw), reply.Header, reply.Truncate)
		return
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		body := map[string]any{"error": map[string]any{
			"message": reply.ErrorMessage, "type": reply.ErrorType, "param": nil, "code": reply.ErrorCode}}
		writeJSON(w, reply.Status, body, reply.Header, reply.Truncate)
		return
	}
	var body any
	switch call.Endpoint {
	case "chat":
		body = chatBody(call, s.texts(call, reply), reply)
	case "completions":
		body = completionBody(call, s.texts(call, reply), reply)
	case "embeddings":
		body = embeddingBody(call, reply)
	}
	writeJSON(w, http.StatusOK, body, reply.Header, reply.Truncate)
}

func statusOr200(s int) int {
	if s == 0 {
		return http.StatusOK
	}
	return s
}

// texts returns the choices' texts: n of them (one if the server ignores n).
func (s *Server) texts(call Call, reply Reply) []string {
	n := call.Want()
	if s.cfg.IgnoreN {
		n = 1
	}
	out := make([]string, n)
	for i := range out {
		if len(reply.Texts) == 0 {
			out[i] = fmt.Sprintf("completion %d", i+1)
		} else {
			out[i] = reply.Texts[i%len(reply.Texts)]
		}
	}
	return out
}

func tokens(s string) int { return len(strings.Fields(s)) + 1 }

func usage(prompt string, texts []string) map[string]int {
	p, c := tokens(prompt), 0
	for _, t := range texts {
		c += tokens(t)
	}
	return map[string]int{"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
}

func top(call Call, reply Reply) []Logprob {
	t := reply.Top
	if t == nil {
		t = defaultTop
	}
	if call.TopLogprobs > 0 && call.TopLogprobs < len(t) {
		t = t[:call.TopLogprobs]
	}
	return t
}

func finish(reply Reply) string {
	if reply.FinishReason == "" {
		return "stop"
	}
	return reply.FinishReason
}

// chatBody is a chat.completion object; logprobs in the chat format
// (choices[].logprobs.content[].top_logprobs).
func chatBody(call Call, texts []string, reply Reply) map[string]any {
	choices := make([]map[string]any, len(texts))
	for i, t := range texts {
		ch := map[string]any{
			"index":         i,
			"message":       map[string]any{"role": "assistant", "content": t},
			"finish_reason": finish(reply),
			"logprobs":      nil,
		}
		if tl := top(call, reply); call.Logprobs && len(tl) == 0 {
			ch["logprobs"] = map[string]any{"content": []any{}}
		} else if call.Logprobs {
			alts := make([]map[string]any, len(tl))
			for j, x := range tl {
				alts[j] = map[string]any{"token": x.Token, "logprob": x.Logprob, "bytes": []byte(x.Token)}
			}
			first := map[string]any{"token": tl[0].Token, "logprob": tl[0].Logprob, "bytes": []byte(tl[0].Token), "top_logprobs": alts}
			ch["logprobs"] = map[string]any{"content": []any{first}}
		}
		choices[i] = ch
	}
	return map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 1700000000, "model": call.Model,
		"choices": choices, "usage": usage(call.Text(), texts), "system_fingerprint": "llmtest",
	}
}

// completionBody is a text_completion object; logprobs in the legacy format
// (tokens, token_logprobs, top_logprobs as maps, text_offset).
func completionBody(call Call, texts []string, reply Reply) map[string]any {
	choices := make([]map[string]any, len(texts))
	for i, t := range texts {
		ch := map[string]any{"index": i, "text": t, "finish_reason": finish(reply), "logprobs": nil}
		if tl := top(call, reply); call.Logprobs && len(tl) > 0 {
			alts := map[string]float64{}
			for _, x := range tl {
				alts[x.Token] = x.Logprob
			}
			ch["logprobs"] = map[string]any{
				"tokens": []string{tl[0].Token}, "token_logprobs": []float64{tl[0].Logprob},
				"top_logprobs": []map[string]float64{alts}, "text_offset": []int{len(call.Prompt)},
			}
		}
		choices[i] = ch
	}
	return map[string]any{
		"id": "cmpl-llmtest", "object": "text_completion", "created": 1700000000, "model": call.Model,
		"choices": choices, "usage": usage(call.Prompt, texts),
	}
}

func embeddingBody(call Call, reply Reply) map[string]any {
	data := make([]map[string]any, len(call.Input))
	total := 0
	for i, text := range call.Input {
		var v []float32
		if i < len(reply.Embeddings) {
			v = reply.Embeddings[i]
		} else {
			v = hashVector(text, EmbeddingDim)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
		total += tokens(text)
	}
	return map[string]any{
		"object": "list", "data": data, "model": call.Model,
		"usage": map[string]int{"prompt_tokens": total, "total_tokens": total},
	}
}

// Samples answers each generation with canned texts looked up by the call's
// prompt text (the completions prompt, or the last chat message): the first
// n of them, in order, like a model that recorded them. A prompt without
// samples gets a 400 error that names it, so a test sees what it missed.
// Embeddings calls get the default vectors.
func Samples(byPrompt map[string][]string) Responder {
	return func(c Call) Reply {
		if c.Endpoint == "embeddings" {
			return Reply{}
		}
		texts, ok := byPrompt[c.Text()]
		if !ok || len(texts) == 0 {
			first, _, _ := strings.Cut(strings.TrimSpace(c.Text()), "\n")
			return Reply{Status: http.StatusBadRequest, ErrorType: "invalid_request_error",
				ErrorMessage: fmt.Sprintf("llmtest: no canned samples for prompt %q", first)}
		}
		return Reply{Texts: texts[:min(c.Want(), len(texts))]}
	}
}
