package execute

import (
	"encoding/json"
	"fmt"
)

// Module makes a Pool run every program as one module of a project, for
// `run --spec FILE::NAME`: the program is the module's whole source (the
// file with the function replaced by a candidate), and it runs with its
// globals in a fresh module object registered in sys.modules under Name,
// with __file__, __package__ and __spec__ set, so relative imports work and
// the project's own modules that import it get the program, not the file on
// disk. Path goes first on sys.path (the project's root and the module's
// top directory), and nothing is written into the project.
type Module struct {
	// Name is the module's dotted name, e.g. shop.pricing.
	Name string `json:"name"`
	// File is the module's path, as the sandbox shows it (its own).
	File string `json:"file"`
	// Path lists the directories that go first on sys.path.
	Path []string `json:"path"`
	// Fingerprint identifies what results depend on besides the program
	// and the test (the project's other files, the interpreter); results
	// cached under another fingerprint are not reused.
	Fingerprint string `json:"-"`
}

// workerArgs returns the interpreter's arguments for a worker: -s (no user
// site directory), -P where the interpreter has it (Python 3.11: no script
// directory on sys.path; the worker drops it where not), the bootstrap,
// and the module's description when m is not nil.
func workerArgs(m *Module, noSafePath bool) ([]string, error) {
	args := []string{"-s", "-P", "-c", bootstrap}
	if noSafePath {
		args = []string{"-s", "-c", bootstrap}
	}
	if m == nil {
		return args, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode module: %w", err)
	}
	return append(args, string(b)), nil
}

// fingerprint returns m's Fingerprint, "" for nil.
func (m *Module) fingerprint() string {
	if m == nil {
		return ""
	}
	return m.Fingerprint
}

// within makes k's program keys depend on the fingerprint fp too (none
// when fp is empty).
func (k *cacheKeys) within(fp string) *cacheKeys {
	if fp == "" {
		return k
	}
	for i, p := range k.programs {
		h := hashOf("module", fp, string(p))
		k.programs[i] = h[:16]
	}
	return k
}
