package execute

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPyworkerModules: the bootstrap is sent every module of pyworker/ but
// the unit tests, each once, in an order where a module imports only the
// modules before it (it installs them in that order, with no import
// system to fall back on).
func TestPyworkerModules(t *testing.T) {
	files, err := fs.Glob(pyworkerFiles, "pyworker/*.py")
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "pyworker/"), ".py")
		if !strings.HasPrefix(name, "test_") {
			onDisk = append(onDisk, name)
		}
	}
	listed := slices.Sorted(slices.Values(pyworkerModules))
	if !slices.Equal(listed, onDisk) {
		t.Errorf("pyworkerModules lists %v, pyworker/ has %v", listed, onDisk)
	}
	if pyworkerModules[0] != "__init__" {
		t.Errorf("the package itself comes first, not %s", pyworkerModules[0])
	}
	imports := regexp.MustCompile(`(?m)^from \.(\w*) import (.+)$`)
	seen := map[string]bool{}
	for _, m := range pyworkerModules {
		src, err := pyworkerSource(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range imports.FindAllStringSubmatch(string(src), -1) {
			deps := []string{im[1]}
			if im[1] == "" { // from . import a, b
				deps = strings.Split(strings.ReplaceAll(im[2], " ", ""), ",")
			}
			for _, d := range deps {
				if !seen[d] {
					t.Errorf("%s imports %s, which is not installed before it", m, d)
				}
			}
		}
		seen[m] = true
	}
}

// TestWorkerPayload: one frame per module, named as the bootstrap installs
// it, then an empty frame.
func TestWorkerPayload(t *testing.T) {
	b, err := workerPayload()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for {
		if len(b) < 4 {
			t.Fatalf("payload cut short after %v", names)
		}
		n := int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3])
		b = b[4:]
		if n == 0 {
			break
		}
		name, _, ok := strings.Cut(string(b[:n]), "\n")
		if !ok {
			t.Fatalf("frame after %v has no name", names)
		}
		names = append(names, name)
		b = b[n:]
	}
	if len(b) != 0 {
		t.Errorf("%d bytes after the last frame", len(b))
	}
	if len(names) != len(pyworkerModules) || names[0] != "pyworker" || names[len(names)-1] != "pyworker.worker" {
		t.Errorf("frames name %v", names)
	}
}
