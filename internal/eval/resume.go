package eval

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// SettingsFile is the file in an output directory that records the settings
// its results were made under.
const SettingsFile = "settings.json"

// ProblemError records a problem of a run that failed on its own (its
// generations, extraction or simulation); it is left out of the results.
type ProblemError struct {
	// ID is the task id.
	ID string `json:"task_id"`
	// Error says what went wrong.
	Error string `json:"error"`
	// NotApplicable marks a problem eval does not apply to
	// (ErrReferenceFails), as opposed to one that failed.
	NotApplicable bool `json:"not_applicable,omitempty"`
}

// ErrReferenceFails means a problem's reference solution fails the
// problem's own hidden tests (MBJP has such tasks): the simulated user
// cannot answer from it, so eval does not apply to the problem.
var ErrReferenceFails = errors.New("the reference solution fails its own hidden tests")

// ErrOtherSettings means an output directory holds results made under other
// settings than the run's.
var ErrOtherSettings = errors.New("the output directory holds results of other settings")

// OtherSettingsError says which settings an output directory's results were
// made under and how they differ from a run's. It matches ErrOtherSettings.
type OtherSettingsError struct {
	// Dir is the output directory.
	Dir string
	// Rows counts the results of each other settings hash.
	Rows map[string]int
	// Changes lists what differs, as "field: old → new" (empty when the
	// directory does not record its settings).
	Changes []string
}

// Error says what the directory holds and what differs.
func (e *OtherSettingsError) Error() string {
	hashes := make([]string, 0, len(e.Rows))
	for h := range e.Rows {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	held := make([]string, len(hashes))
	for i, h := range hashes {
		held[i] = fmt.Sprintf("%d results under settings %s", e.Rows[h], h)
	}
	msg := fmt.Sprintf("%s holds results of other settings (%s)", e.Dir, strings.Join(held, ", "))
	if len(e.Changes) > 0 {
		msg += "; changed: " + strings.Join(e.Changes, ", ")
	}
	return msg
}

// Is reports whether target is ErrOtherSettings.
func (e *OtherSettingsError) Is(target error) bool { return target == ErrOtherSettings }

// Resume returns the results recorded in dir under settings s, by task id.
// When dir holds results of any other settings it returns an
// *OtherSettingsError instead: one directory holds one benchmark, so that
// its summary and results always agree. A directory without results is
// empty.
func Resume(dir string, s Settings) (map[string]Result, error) {
	path := filepath.Join(dir, "results.jsonl")
	rows, err := countByConfig(path)
	if err != nil {
		return nil, err
	}
	hash := s.Hash()
	delete(rows, hash)
	if len(rows) > 0 {
		e := &OtherSettingsError{Dir: dir, Rows: rows}
		if prev, err := readSettings(filepath.Join(dir, SettingsFile)); err == nil {
			e.Changes = settingsChanges(prev, s)
		}
		return nil, e
	}
	return ReadResults(path, hash)
}

// WriteSettings records s in dir's SettingsFile.
func WriteSettings(dir string, s Settings) error {
	b, err := json.MarshalIndent(struct {
		Hash string `json:"hash"`
		Settings
	}{s.Hash(), s}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	path := filepath.Join(dir, SettingsFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	return nil
}

// readSettings reads a SettingsFile.
func readSettings(path string) (Settings, error) {
	var s Settings
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("read %s: %w", path, err)
	}
	return s, nil
}

// countByConfig counts the result lines of a results file by settings hash;
// a missing file counts nothing, unreadable lines are left to ReadResults.
func countByConfig(path string) (map[string]int, error) {
	out := map[string]int{}
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
	for sc.Scan() {
		var r struct {
			Config string `json:"config"`
		}
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Config != "" {
			out[r.Config]++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read results %s: %w", path, err)
	}
	return out, nil
}

// settingsChanges lists the fields that differ between old and cur, as
// "name: old → new", named by their JSON keys ("codes", "max_questions").
func settingsChanges(old, cur Settings) []string {
	a, b := flatten(old), flatten(cur)
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		if a[k] != b[k] {
			out = append(out, fmt.Sprintf("%s: %s → %s", k, orNone(a[k]), orNone(b[k])))
		}
	}
	return out
}

// flatten maps the leaves of s's JSON form to their values (strings as
// they are, other values as JSON text), keyed by the leaf's own name (config and extra fields are named alone).
func flatten(s Settings) map[string]string {
	out := map[string]string{}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		if m, ok := v.(map[string]any); ok {
			for k, x := range m {
				walk(k, x)
			}
			return
		}
		if str, ok := v.(string); ok {
			out[key] = str
			return
		}
		b, _ := json.Marshal(v)
		out[key] = string(b)
	}
	var v any
	b, _ := json.Marshal(s)
	_ = json.Unmarshal(b, &v)
	walk("", v)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
