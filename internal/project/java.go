package project

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ticoder/ticoder/internal/sandbox"
)

// buildOutputs are where Maven and Gradle put a project's compiled main
// classes, relative to its root.
var buildOutputs = []string{"target/classes", "build/classes/java/main"}

// JavaClasspath is what a Java project's candidates compile and run
// against, each entry shown read-only in the sandbox.
type JavaClasspath struct {
	// Entries are class directories and jars: the project's build output
	// (target/classes for Maven, build/classes/java/main for Gradle, those
	// that exist) and the entries given, absolute and free of symlinks.
	Entries []string
	// Outside are the entries outside the project's root, which the
	// sandbox shows as they are (the project's view shows the others,
	// masks applied).
	Outside []string
}

// Classpath returns p's class path: its build output and extra (the
// --classpath entries, e.g. jars under ~/.m2). An entry that does not
// exist, lies under /tmp, has ':' or ',' in its path, or is masked is an
// error that names it.
func (p *Project) Classpath(extra []string) (JavaClasspath, error) {
	var cp JavaClasspath
	var paths []string
	for _, o := range buildOutputs {
		if st, err := os.Stat(filepath.Join(p.Root, o)); err == nil && st.IsDir() {
			paths = append(paths, filepath.Join(p.Root, o))
		}
	}
	seen := map[string]bool{}
	for _, e := range append(paths, extra...) {
		if e == "" {
			continue
		}
		abs, err := filepath.Abs(e)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			return cp, badProject("class path entry %s: %v", e, err)
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		if strings.ContainsAny(abs, ":,") {
			return cp, badProject("class path entry %s: ticoder cannot pass a path with ':' or ',' to the JVM", abs)
		}
		if err := sandbox.CheckShowable(abs); err != nil {
			return cp, badProject("class path entry %v", err)
		}
		if abs == p.Root || !under(abs, p.Root) {
			cp.Outside = append(cp.Outside, abs)
		} else if rel, _ := filepath.Rel(p.Root, abs); sandbox.Masked(p.Mask, rel) {
			return cp, badProject("class path entry %s is masked (a secret no candidate may see)", rel)
		}
		cp.Entries = append(cp.Entries, abs)
	}
	return cp, nil
}

// JavaSandbox returns the configuration of a sandbox that shows the
// project read-only without its masked entries (the JVM's own files come
// from the Java pool).
func (p *Project) JavaSandbox() sandbox.Config {
	return sandbox.Config{Project: &sandbox.ProjectView{Dir: p.Root, Mask: p.Mask}}
}

// JavaFingerprint returns a hash of what a Java candidate's results depend
// on besides its own code and tests: the file and the method, the JDK, the
// name, size and modification time of every file the sandbox shows of the
// project, and of every class path entry outside it.
func (p *Project) JavaFingerprint(javaHome string, cp JavaClasspath) string {
	h := sha256.New()
	fmt.Fprintf(h, "java\x00%s\x00%s\x00%s\x00%s\n", p.Root, p.Rel, p.Name, javaHome)
	for _, e := range cp.Entries {
		fmt.Fprintf(h, "entry %s\n", e)
	}
	for _, l := range fileStamps(p.Root, p.Mask, "") {
		fmt.Fprintln(h, l)
	}
	for _, o := range cp.Outside {
		for _, l := range fileStamps(o, nil, "") { // a jar: one line
			fmt.Fprintf(h, "%s: %s\n", o, l)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
