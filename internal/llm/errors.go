package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"

	openai "github.com/sashabaranov/go-openai"
)

// Sentinel errors; every error a provider returns for one of these reasons
// matches it with errors.Is.
var (
	// ErrUnreachable: no connection to the server (refused, DNS, reset).
	ErrUnreachable = errors.New("model server unreachable")
	// ErrNoAnswer: the server took the request but sent no answer within
	// the request timeout (Options.RequestTimeout).
	ErrNoAnswer = errors.New("no answer from the model server")
	// ErrUnauthorized: the server rejected the API key (401, 403).
	ErrUnauthorized = errors.New("API key rejected")
	// ErrModelNotFound: the server does not serve the model.
	ErrModelNotFound = errors.New("model not found")
	// ErrRateLimited: still 429 after every retry.
	ErrRateLimited = errors.New("rate limited")
	// ErrServer: still 5xx after every retry.
	ErrServer = errors.New("server error")
	// ErrBadRequest: the server rejected the request (400, 404, 422, ...).
	ErrBadRequest = errors.New("request rejected")
	// ErrMalformedResponse: the answer was truncated, not JSON, or lacked
	// what was asked for (choices, log-probabilities, embeddings).
	ErrMalformedResponse = errors.New("malformed response")
	// ErrUnsupported: the provider cannot do this (replay cannot embed).
	ErrUnsupported = errors.New("not supported by this provider")
	// ErrCacheMiss: offline and the request is not in the cache.
	ErrCacheMiss = errors.New("not in the response cache")
	// ErrNoSamples: replay holds no recorded samples for the request.
	ErrNoSamples = errors.New("no recorded samples")
	// ErrBadSpec: a model selector that is not of the form KIND:MODEL,
	// KIND:MODEL@BASEURL or replay:DIR, or one whose server address the
	// environment does not give (AZURE_OPENAI_ENDPOINT unset, a base URL
	// that is no URL).
	ErrBadSpec = errors.New("not a model selector")
	// ErrBadReplay: replay:DIR names no directory of recorded samples, or
	// one whose files cannot be read.
	ErrBadReplay = errors.New("unusable replay directory")
	// ErrNeedsCache: offline mode without a response cache.
	ErrNeedsCache = errors.New("offline mode needs a response cache")
)

// Error is a provider error meant for a person: one line that says what
// happened and what to do. It matches its Kind (one of the sentinels) and its
// cause with errors.Is.
type Error struct {
	// Kind is the sentinel the error matches.
	Kind error
	// Msg is the one-line message.
	Msg string
	// Err is the underlying cause, if any.
	Err error
}

// Error returns the one-line message.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the sentinel and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func newError(kind error, cause error, format string, args ...any) *Error {
	return &Error{Kind: kind, Err: cause, Msg: oneLine(fmt.Sprintf(format, args...), 400)}
}

// oneLine collapses whitespace runs (newlines included) and bounds the length.
func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > limit {
		s = s[:limit-3] + "..."
	}
	return s
}

// classify turns an error from go-openai (or the doer under it) into an
// *Error that says what to do. what names the operation, e.g. "chat completion".
func (c *Client) classify(err error, what string) error {
	if err == nil {
		return nil
	}
	var na *noAnswerError
	if errors.As(err, &na) {
		return newError(ErrNoAnswer, err, "no answer from %s within %s for %s: is the server stuck or overloaded, or still loading the model?",
			na.url, na.timeout, what)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s from %s: %w", what, c.res.baseURL, err)
	}
	var tErr *transportError
	if errors.As(err, &tErr) {
		return c.transportFailure(tErr)
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return c.statusFailure(apiErr.HTTPStatusCode, apiErr.Message, fmt.Sprint(apiErr.Code), apiErr.Type, err)
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return c.statusFailure(reqErr.HTTPStatusCode, string(reqErr.Body), "", "", err)
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return newError(ErrMalformedResponse, err,
			"%s from %s was truncated or is not valid JSON (%v): check that the base URL points at an OpenAI-compatible API (it usually ends in /v1), or retry", what, c.res.baseURL, err)
	}
	return newError(ErrBadRequest, err, "%s via %s failed: %v", what, c.endpoint(), err)
}

func (c *Client) transportFailure(e *transportError) error {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	refused := errors.Is(e.err, syscall.ECONNREFUSED) || errors.As(e.err, &dnsErr) ||
		(errors.As(e.err, &opErr) && opErr.Op == "dial")
	reason := "connection failed: " + innermost(e.err)
	switch {
	case errors.Is(e.err, syscall.ECONNREFUSED):
		reason = "connection refused"
	case dnsErr != nil:
		reason = "unknown host " + dnsErr.Name
	case errors.Is(e.err, context.DeadlineExceeded):
		reason = "timed out"
	case !refused:
		reason = "connection lost: " + innermost(e.err)
	}
	if c.res.spec.BaseURL != "" {
		// The address came with the model selector: no variable to set.
		return newError(ErrUnreachable, e,
			"cannot reach %s (%s, %d attempts): is the server running? check the address given after @ in %s:%s@…",
			c.res.baseURL, reason, e.attempts, c.res.spec.Kind, c.res.spec.Model)
	}
	return newError(ErrUnreachable, e,
		"cannot reach %s (%s, %d attempts): is the server running? set %s, or select the model as %s",
		c.res.baseURL, reason, e.attempts, c.res.info.urlEnv, c.specHint())
}

// innermost returns the message of the error a *url.Error wraps (without
// the method and URL it repeats), bounded in length.
func innermost(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return oneLine(err.Error(), 120)
}

// specHint shows the --model form that names a base URL explicitly.
func (c *Client) specHint() string {
	switch c.res.spec.Kind {
	case KindAzure:
		return "azure:DEPLOYMENT"
	case KindOpenAI:
		return "vllm:MODEL@http://HOST:PORT/v1 for a local server"
	}
	return fmt.Sprintf("%s:%s@http://HOST:PORT/v1", c.res.spec.Kind, c.res.spec.Model)
}

// statusFailure explains an HTTP error answer.
func (c *Client) statusFailure(status int, msg, code, typ string, cause error) error {
	msg = oneLine(msg, 200)
	base := c.res.baseURL
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return newError(ErrUnauthorized, cause, "%s rejected the API key (HTTP %d: %s): set %s",
			base, status, msg, c.keyEnvHint())
	case isModelNotFound(status, msg, code):
		return newError(ErrModelNotFound, cause, "%s does not serve model %q (%s): list its models with %s",
			base, c.res.spec.Model, msg, c.listModelsHint())
	case status == http.StatusTooManyRequests:
		return newError(ErrRateLimited, cause, "%s is still rate limiting after %d attempts%s: wait and rerun (cached answers are kept), or lower the concurrency",
			base, c.retryAttempts(), paren(msg))
	case status >= 500:
		return newError(ErrServer, cause, "%s answered HTTP %d after %d attempts%s: check the server's logs and retry later",
			base, status, c.retryAttempts(), paren(msg))
	case status == http.StatusNotFound:
		return newError(ErrBadRequest, cause, "%s answered 404 for model %q (%s): is the base URL right? OpenAI-compatible servers usually serve it under /v1",
			base, c.res.spec.Model, msg)
	}
	return newError(ErrBadRequest, cause, "%s rejected the request for model %q (HTTP %d, %s: %s): check the sampling parameters and the prompt style (chat or completion)",
		base, c.res.spec.Model, status, orDash(typ), msg)
}

// paren returns " (s)", or "" for an empty s.
func paren(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// isModelNotFound recognises the ways servers say "no such model": OpenAI's
// model_not_found code, Azure's DeploymentNotFound, vLLM's "The model `x`
// does not exist", Ollama's "model \"x\" not found".
func isModelNotFound(status int, msg, code string) bool {
	if status != http.StatusNotFound && status != http.StatusBadRequest {
		return false
	}
	if code == "model_not_found" || code == "DeploymentNotFound" {
		return true
	}
	m := strings.ToLower(msg)
	return strings.Contains(m, "model") && (strings.Contains(m, "does not exist") || strings.Contains(m, "not found")) ||
		strings.Contains(m, "deployment") && strings.Contains(m, "does not exist")
}

func (c *Client) keyEnvHint() string {
	if len(c.res.info.keyEnv) == 0 {
		return "the server's API key (this kind sends none)"
	}
	return strings.Join(c.res.info.keyEnv, " or ")
}

func (c *Client) listModelsHint() string {
	h := c.res.info.listModels
	if strings.Contains(h, "%s") {
		h = fmt.Sprintf(h, c.res.baseURL)
	}
	return h
}

func (c *Client) retryAttempts() int { return c.doer.retry.Attempts }
