package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Retry says how failed HTTP attempts are repeated: after 429, 408, a 5xx
// (except 501 and 505) or a connection error, up to Attempts tries in all,
// waiting what the server's Retry-After (or retry-after-ms) asks for, else an
// exponential back-off with jitter. The zero value means the defaults.
type Retry struct {
	// Attempts is the total number of tries, the first included; 0 means 5
	// and 1 disables retries.
	Attempts int
	// Base is the first back-off; 0 means 500 ms. Each later one doubles.
	Base time.Duration
	// Max caps one back-off; 0 means 30 s.
	Max time.Duration
	// MaxRetryAfter caps a server's Retry-After; 0 means 2 min.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx ends; nil means a timer. Tests inject a
	// recorder that returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock Retry-After dates are read against; nil means time.Now.
	Now func() time.Time
}

func (r Retry) withDefaults() Retry {
	if r.Attempts <= 0 {
		r.Attempts = 5
	}
	if r.Base <= 0 {
		r.Base = 500 * time.Millisecond
	}
	if r.Max <= 0 {
		r.Max = 30 * time.Second
	}
	if r.MaxRetryAfter <= 0 {
		r.MaxRetryAfter = 2 * time.Minute
	}
	if r.Sleep == nil {
		r.Sleep = sleepCtx
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	return r
}

// backoff returns the wait before attempt number attempt+1 (attempt ≥ 1):
// Base·2^(attempt-1), capped at Max, with "equal jitter" (between half and
// all of it).
func (r Retry) backoff(attempt int) time.Duration {
	d := r.Base
	for i := 1; i < attempt && d < r.Max; i++ {
		d *= 2
	}
	d = min(d, r.Max)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

// retryAfter parses the server's wish: retry-after-ms, or Retry-After in
// seconds or as an HTTP date. ok is false when there is none.
func (r Retry) retryAfter(h http.Header) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return min(time.Duration(ms*float64(time.Millisecond)), r.MaxRetryAfter), true
		}
	}
	return parseRetryAfter(h.Get("Retry-After"), r.Now(), r.MaxRetryAfter)
}

// parseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
// The result is clamped to [0, limit].
func parseRetryAfter(v string, now time.Time, limit time.Duration) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs != secs { // negative or NaN
			return 0, false
		}
		if secs > limit.Seconds() {
			return limit, true
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return min(max(t.Sub(now), 0), limit), true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryableStatus reports whether an HTTP status is worth another try.
func retryableStatus(code int) bool {
	switch {
	case code == http.StatusTooManyRequests, code == http.StatusRequestTimeout:
		return true
	case code == http.StatusNotImplemented, code == http.StatusHTTPVersionNotSupported:
		return false
	}
	return code >= 500 && code <= 599
}

// transportError is a request that never got an HTTP response: the
// connection was refused, reset or timed out, on every attempt.
type transportError struct {
	url      string
	attempts int
	err      error
}

func (e *transportError) Error() string {
	return fmt.Sprintf("%s (after %d attempts): %v", e.url, e.attempts, e.err)
}

func (e *transportError) Unwrap() error { return e.err }

// noAnswerError is an attempt that got no (whole) answer within the
// request timeout, though the server took the request.
type noAnswerError struct {
	url     string
	timeout time.Duration
}

func (e *noAnswerError) Error() string {
	return fmt.Sprintf("%s sent no answer within %s", e.url, e.timeout)
}

// Is makes a *noAnswerError match ErrNoAnswer.
func (e *noAnswerError) Is(target error) bool { return target == ErrNoAnswer }

// errAttemptTimeout is the cause of an attempt's context that ran out of
// time.
var errAttemptTimeout = errors.New("request timeout")

// doer is the HTTP layer under go-openai: a concurrency limit, a timeout
// per attempt, retries and back-off. It implements openai.HTTPDoer and is
// safe for concurrent use.
type doer struct {
	client *http.Client
	retry  Retry
	sem    chan struct{}
	usage  *Usage
	// url is the server's base URL as messages show it.
	url string
	// timeout bounds one attempt, headers and body; ≤ 0: no limit.
	timeout time.Duration
	// waiting records the attempts without an answer; nil: none.
	waiting *Waiting
}

func newDoer(client *http.Client, retry Retry, concurrency int, usage *Usage) *doer {
	if client == nil {
		client = &http.Client{} // each attempt's context bounds it (doer.timeout)
	}
	if concurrency <= 0 {
		concurrency = 8
	}
	return &doer{client: client, retry: retry.withDefaults(), sem: make(chan struct{}, concurrency), usage: usage}
}

// Do sends req, repeating it while the answer is retryable. The last
// retryable answer is returned as it is, so that go-openai reads its error
// body; a connection error on the last attempt becomes a *transportError.
func (d *doer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 1; ; attempt++ {
		r, err := d.attemptRequest(req, attempt)
		if err != nil {
			return nil, err
		}
		resp, err := d.send(ctx, r)
		if ctx.Err() != nil {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, ctx.Err()
		}
		var wait time.Duration
		var noAnswer *noAnswerError
		switch {
		case errors.As(err, &noAnswer):
			return nil, err // a server that kept silent that long would most likely do it again
		case err != nil:
			if attempt >= d.retry.Attempts {
				return nil, &transportError{url: req.URL.Redacted(), attempts: attempt, err: err}
			}
			wait = d.retry.backoff(attempt)
		case retryableStatus(resp.StatusCode) && attempt < d.retry.Attempts:
			var ok bool
			if wait, ok = d.retry.retryAfter(resp.Header); !ok {
				wait = d.retry.backoff(attempt)
			}
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		default:
			return resp, nil
		}
		d.usage.addRetry()
		if err := d.retry.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// attemptRequest returns req for the first attempt and a copy with a fresh
// body for the later ones.
func (d *doer) attemptRequest(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 1 {
		return req, nil
	}
	r := req.Clone(req.Context())
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return nil, fmt.Errorf("retry %s: request body cannot be replayed", req.URL.Redacted())
		}
		body, err := req.GetBody()
		if err != nil {
			return nil, fmt.Errorf("retry %s: %w", req.URL.Redacted(), err)
		}
		r.Body = body
	}
	return r, nil
}

// send performs one attempt while holding a concurrency slot, within the
// doer's timeout; the slot is given back, and the timeout ends, when the
// response body is closed.
func (d *doer) send(ctx context.Context, r *http.Request) (*http.Response, error) {
	select {
	case d.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	actx, cancel := ctx, context.CancelFunc(func() {})
	if d.timeout > 0 {
		actx, cancel = context.WithTimeoutCause(ctx, d.timeout, errAttemptTimeout)
	}
	var once sync.Once
	release := func() { once.Do(func() { cancel(); <-d.sem }) }
	answered := d.waiting.begin(d.url)
	resp, err := d.client.Do(r.WithContext(actx))
	answered()
	if err != nil {
		err = d.timedOut(ctx, actx, err)
		release()
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release, err: func(err error) error { return d.timedOut(ctx, actx, err) }}
	return resp, nil
}

// timedOut returns err, or a *noAnswerError when it came of the attempt's
// context actx running out of time (and not of ctx ending).
func (d *doer) timedOut(ctx, actx context.Context, err error) error {
	if ctx.Err() == nil && errors.Is(context.Cause(actx), errAttemptTimeout) {
		return &noAnswerError{url: d.url, timeout: d.timeout}
	}
	return err
}

// releasingBody is a response body that gives back its concurrency slot
// when closed and reports a read cut short by the timeout as such.
type releasingBody struct {
	io.ReadCloser
	release func()
	err     func(error) error
}

func (b *releasingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = b.err(err)
	}
	return n, err
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// redactURL returns u without a password, for messages.
func redactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Redacted()
}
