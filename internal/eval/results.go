package eval

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
)

// resultsVersion changes whenever the meaning of a Result changes, so old
// files are not resumed into new runs.
const resultsVersion = 3

// Settings identify a benchmark run: a killed run resumes only the problems
// finished under the same settings.
type Settings struct {
	// Dataset and Model name the data and the generations.
	Dataset string `json:"dataset"`
	Model   string `json:"model"`
	// Config is the simulated configuration.
	Config Config `json:"config"`
	// Extra holds anything else that changes results (timeouts, sample
	// counts, prompt templates).
	Extra map[string]string `json:"extra,omitempty"`
}

// Hash returns a short hex digest of the settings.
func (s Settings) Hash() string {
	b, _ := json.Marshal(struct {
		V int `json:"v"`
		Settings
	}{resultsVersion, s})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// ReadResults reads the results recorded in a JSONL file under the settings
// hash config, by task id (a later line wins). A missing file is empty. A
// line that does not parse (a run killed mid-write) is skipped with a warning.
func ReadResults(path, config string) (map[string]Result, error) {
	out := map[string]Result{}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read results %s: %w", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		var r Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			slog.Warn("skipping unreadable result line", "file", path, "line", line, "err", err)
			continue
		}
		if r.Config == config {
			out[r.ID] = r
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read results %s: %w", path, err)
	}
	return out, nil
}

// Appender appends results to a JSONL file, one line each, synced to disk.
// It is safe for concurrent use.
type Appender struct {
	mu sync.Mutex
	f  *os.File
}

// OpenAppender opens (creating) a results file for appending.
func OpenAppender(path string) (*Appender, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open results %s: %w", path, err)
	}
	return &Appender{f: f}, nil
}

// Append writes one result.
func (a *Appender) Append(r Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode result %s: %w", r.ID, err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("append result %s: %w", r.ID, err)
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("sync results after %s: %w", r.ID, err)
	}
	return nil
}

// Close closes the file.
func (a *Appender) Close() error {
	if err := a.f.Close(); err != nil {
		return fmt.Errorf("close results: %w", err)
	}
	return nil
}
