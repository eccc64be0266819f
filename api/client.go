package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// StatusError is returned by Client for an error response.
type StatusError struct {
	// Status is the HTTP status code.
	Status int
	// Message is the server's message.
	Message string
}

// Error returns the server's message with the status.
func (e *StatusError) Error() string {
	return fmt.Sprintf("ticoder server: %s (HTTP %d)", e.Message, e.Status)
}

// Client talks to a ticoder server. It is safe for concurrent use.
type Client struct {
	base  string
	token string
	http  *http.Client
}

// NewClient returns a client of the server at base (e.g.
// "http://127.0.0.1:8080"); hc nil means http.DefaultClient. If base has a
// ?token= parameter, as the address that `ticoder serve` prints does when
// the server needs an access token, the client sends that token with every
// request (as Authorization: Bearer TOKEN) and not in the address.
func NewClient(base string, hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	token := ""
	if u, err := url.Parse(base); err == nil && u.Query().Has("token") {
		token = u.Query().Get("token")
		q := u.Query()
		q.Del("token")
		u.RawQuery = q.Encode()
		base = u.String()
	}
	return &Client{base: strings.TrimRight(base, "/"), token: token, http: hc}
}

// WithToken returns a copy of c that sends token as the server's access
// token (see `ticoder serve --token`); an empty token sends none.
func (c *Client) WithToken(token string) *Client {
	cp := *c
	cp.token = token
	return &cp
}

// Info describes the server.
func (c *Client) Info(ctx context.Context) (*Info, error) {
	var out Info
	return &out, c.do(ctx, http.MethodGet, "/api/info", nil, &out)
}

// Demos lists the built-in demo problems.
func (c *Client) Demos(ctx context.Context) ([]Demo, error) {
	var out []Demo
	return out, c.do(ctx, http.MethodGet, "/api/demos", nil, &out)
}

// Create starts a session.
func (c *Client) Create(ctx context.Context, req CreateSession) (*Session, error) {
	var out Session
	return &out, c.do(ctx, http.MethodPost, "/api/sessions", req, &out)
}

// Session returns a session's state.
func (c *Client) Session(ctx context.Context, id string) (*Session, error) {
	var out Session
	return &out, c.do(ctx, http.MethodGet, "/api/sessions/"+url.PathEscape(id), nil, &out)
}

// Answer answers the pending question.
func (c *Client) Answer(ctx context.Context, id string, a Answer) (*Session, error) {
	var out Session
	return &out, c.do(ctx, http.MethodPost, "/api/sessions/"+url.PathEscape(id)+"/answer", a, &out)
}

// Undo takes back the last answer.
func (c *Client) Undo(ctx context.Context, id string) (*Session, error) {
	var out Session
	return &out, c.do(ctx, http.MethodPost, "/api/sessions/"+url.PathEscape(id)+"/undo", nil, &out)
}

// Stop ends the questions early.
func (c *Client) Stop(ctx context.Context, id string) (*Session, error) {
	var out Session
	return &out, c.do(ctx, http.MethodPost, "/api/sessions/"+url.PathEscape(id)+"/stop", nil, &out)
}

// Project lists the functions of the server's project (serve --project).
func (c *Client) Project(ctx context.Context) (*Project, error) {
	var out Project
	return &out, c.do(ctx, http.MethodGet, "/api/project", nil, &out)
}

// Write puts a session's candidate into the server's project in place and
// appends the approved tests to the project's tests.
func (c *Client) Write(ctx context.Context, id string, req WriteRequest) (*Written, error) {
	var out Written
	return &out, c.do(ctx, http.MethodPost, "/api/sessions/"+url.PathEscape(id)+"/write", req, &out)
}

// Candidates returns the remaining behaviour classes, best first.
func (c *Client) Candidates(ctx context.Context, id string) ([]Candidate, error) {
	var out []Candidate
	return out, c.do(ctx, http.MethodGet, "/api/sessions/"+url.PathEscape(id)+"/candidates", nil, &out)
}

// Export returns the code of a candidate (the best one when candidate < 0)
// and the approved tests.
func (c *Client) Export(ctx context.Context, id string, candidate int) (*Export, error) {
	path := "/api/sessions/" + url.PathEscape(id) + "/export"
	if candidate >= 0 {
		path += "?candidate=" + strconv.Itoa(candidate)
	}
	var out Export
	return &out, c.do(ctx, http.MethodGet, path, nil, &out)
}

// do sends a request; a request other than GET always has a JSON body
// (the server refuses others), {} when body is nil.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil || method != http.MethodGet {
		b := []byte("{}")
		if body != nil {
			var err error
			if b, err = json.Marshal(body); err != nil {
				return fmt.Errorf("encode request: %w", err)
			}
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("%s %s: read response: %w", method, path, err)
	}
	if resp.StatusCode >= 400 {
		var e Error
		if json.Unmarshal(data, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(data))
		}
		return &StatusError{Status: resp.StatusCode, Message: e.Error}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decode response: %w", method, path, err)
	}
	return nil
}
