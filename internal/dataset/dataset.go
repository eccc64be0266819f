package dataset

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// EnvDataDir is the environment variable that names the data directory when
// no --data-dir flag is given.
const EnvDataDir = "TICODER_DATA"

// DefaultDataDir is the data directory used when neither the flag nor
// $TICODER_DATA names one.
const DefaultDataDir = "data"

// ErrUnknown means a name is neither a known dataset nor an existing file.
var ErrUnknown = errors.New("unknown dataset")

// ErrNoProblem means a task id names no problem of the dataset (Select).
var ErrNoProblem = errors.New("no such problem")

// ErrBadFile means a data file cannot be read as a dataset: every
// *LineError matches it.
var ErrBadFile = errors.New("not a dataset file")

// Dataset is a loaded benchmark: its problems in file order. A Dataset is
// safe for concurrent reads once loaded; do not modify Problems while others
// read it.
type Dataset struct {
	// Name is the dataset's name ("humaneval", ...) or, for a file given by
	// path, the file's base name without extensions.
	Name string
	// Path is the file the problems were read from; empty if built in memory.
	Path string
	// Problems lists the problems in file order.
	Problems []Problem

	index map[string]int
}

// New returns a Dataset holding problems, indexed for Get. It fails if two
// problems share an ID.
func New(name string, problems []Problem) (*Dataset, error) {
	d := &Dataset{Name: name, Problems: problems, index: make(map[string]int, len(problems))}
	for i, p := range problems {
		if j, dup := d.index[p.ID]; dup {
			return nil, fmt.Errorf("duplicate task id %q (problems %d and %d)", p.ID, j, i)
		}
		d.index[p.ID] = i
	}
	return d, nil
}

// Get returns the problem with the given task id. An id without a "/" (such as
// "0" or "2") also matches the problem whose id ends in "/" + id, so that
// "0" finds "HumanEval/0" and "2" finds "Mbpp/2". A Dataset built without New
// (or Load) is searched linearly; a nil Dataset finds nothing.
func (d *Dataset) Get(id string) (Problem, bool) {
	if d == nil {
		return Problem{}, false
	}
	if i, ok := d.index[id]; ok {
		return d.Problems[i], true
	}
	short := !strings.Contains(id, "/")
	for _, p := range d.Problems {
		if p.ID == id || short && strings.HasSuffix(p.ID, "/"+id) {
			return p, true
		}
	}
	return Problem{}, false
}

// Len returns the number of problems.
func (d *Dataset) Len() int {
	if d == nil {
		return 0
	}
	return len(d.Problems)
}

// DataDir resolves the data directory: the flag's value if not empty, else
// $TICODER_DATA if set, else ./data.
func DataDir(flag string) string {
	if flag != "" {
		return flag
	}
	if env := os.Getenv(EnvDataDir); env != "" {
		return env
	}
	return DefaultDataDir
}

// Load reads a dataset: nameOrPath is one of the known names (see Known),
// whose file is looked up under dataDir, or the path of a JSONL, JSONL.gz or
// JSON-array file of HumanEval-style or MBPP-style rows. Errors name the
// dataset, the file and the line.
func Load(ctx context.Context, dataDir, nameOrPath string) (*Dataset, error) {
	name, path, err := Resolve(dataDir, nameOrPath)
	if err != nil {
		return nil, err
	}
	ds, err := LoadFile(ctx, name, path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, known := Lookup(name); known {
				return nil, fmt.Errorf("load %s: %s is missing: run \"ticoder data fetch %s\", or point --data-dir or $%s at a directory that has it: %w",
					name, path, name, EnvDataDir, fs.ErrNotExist)
			}
		}
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	return ds, nil
}

// Resolve maps a dataset name or file path to the dataset's name and file.
func Resolve(dataDir, nameOrPath string) (name, path string, err error) {
	if spec, ok := Lookup(nameOrPath); ok {
		return spec.Name, spec.Path(dataDir), nil
	}
	if st, err := os.Stat(nameOrPath); err == nil && !st.IsDir() {
		return baseName(nameOrPath), nameOrPath, nil
	}
	return "", "", fmt.Errorf("%w %q: want one of %s, or the path of a JSONL or JSON file",
		ErrUnknown, nameOrPath, strings.Join(Names(), ", "))
}

// LoadFile reads the problems in path and names the dataset name.
func LoadFile(ctx context.Context, name, path string) (*Dataset, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	ds, err := decode(ctx, name, path, data)
	if err != nil {
		return nil, err
	}
	ds.Path = path
	return ds, nil
}

// decode parses the (decompressed) contents of a data file; path is used in
// error messages only.
func decode(ctx context.Context, name, path string, data []byte) (*Dataset, error) {
	recs, err := readRecords(ctx, path, data)
	if err != nil {
		return nil, err
	}
	problems := make([]Problem, 0, len(recs))
	firstLine := make(map[string]int, len(recs))
	for _, r := range recs {
		p, err := problemFrom(r, name)
		if err != nil {
			if r.isSample() {
				err = fmt.Errorf("%w: this looks like a samples file (its rows have %q); give it with --samples, and give --dataset the benchmark it answers, e.g. humaneval", err, r.sampleField())
			}
			return nil, &LineError{Path: path, Line: r.line, Err: err}
		}
		if prev, dup := firstLine[p.ID]; dup {
			return nil, &LineError{Path: path, Line: r.line, Err: fmt.Errorf("duplicate task_id %q (first on line %d)", p.ID, prev)}
		}
		firstLine[p.ID] = r.line
		problems = append(problems, p)
	}
	ds, err := New(name, problems)
	if err != nil {
		return nil, &LineError{Path: path, Err: err}
	}
	return ds, nil
}

// noProblemError is Select's error for an unknown task id; it matches
// ErrNoProblem.
type noProblemError struct{ msg string }

func (e noProblemError) Error() string        { return e.msg }
func (e noProblemError) Is(target error) bool { return target == ErrNoProblem }

// baseName returns a file's name without directory and data extensions.
func baseName(path string) string {
	base := filepath.Base(path)
	for _, ext := range []string{".gz", ".jsonl", ".json"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// Select returns the problems named by ids (all of them when ids is empty),
// in dataset order. Ids are looked up as Get does; an unknown id is an error
// that names it and shows what an id looks like.
func (d *Dataset) Select(ids []string) ([]Problem, error) {
	if len(ids) == 0 {
		return d.Problems, nil
	}
	want := map[string]bool{}
	for _, id := range ids {
		p, ok := d.Get(strings.TrimSpace(id))
		if !ok {
			example := ""
			if len(d.Problems) > 0 {
				example = fmt.Sprintf(": use task ids such as %s", d.Problems[0].ID)
			}
			return nil, noProblemError{fmt.Sprintf("%s has no problem %q%s", d.Name, id, example)}
		}
		want[p.ID] = true
	}
	var out []Problem
	for _, p := range d.Problems {
		if want[p.ID] {
			out = append(out, p)
		}
	}
	return out, nil
}
