package jvm

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/project"
	"github.com/ticoder/ticoder/internal/project/projecttest"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// javaProjectPool returns a Java pool that runs programs as the Java
// fixture's com.shop.Pricing, the fixture, and the class's source.
func javaProjectPool(t *testing.T) (*Pool, projecttest.JavaProject, string) {
	t.Helper()
	fx := projecttest.JavaProjectFixture(t)
	file := filepath.Join(fx.Root, "src/main/java/com/shop/Pricing.java")
	proj, err := project.Resolve(project.Target{File: file, Name: "Pricing.applyDiscount"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if proj.Root != fx.Root {
		t.Fatalf("project root %s, want %s (pom.xml)", proj.Root, fx.Root)
	}
	cp, err := proj.Classpath(nil)
	if err != nil || len(cp.Entries) != 1 || len(cp.Outside) != 0 {
		t.Fatalf("class path %+v: %v", cp, err)
	}
	home, err := sandbox.JavaHome()
	if err != nil {
		t.Skip(err)
	}
	jp := &Project{Classpath: cp.Entries, Imports: []string{"com.shop.Pricing"}, Fingerprint: proj.JavaFingerprint(home, cp)}
	pool, err := NewProjectPool(context.Background(), execute.Options{Workers: 1, Sandbox: proj.JavaSandbox()}, jp)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return pool, fx, string(src)
}

// javaProbe is a method a hostile candidate adds to Pricing: it looks for
// every secret of the fixture, lists .git, walks the project, and tries
// to write into the project and its compiled classes. It returns what it
// found or did; "sees pom.xml" shows that the project is there at all.
const javaProbe = `
    public static String probe() {
        java.util.List<String> found = new java.util.ArrayList<>();
        java.nio.file.Path root = java.nio.file.Paths.get(ROOT);
        if (java.nio.file.Files.exists(root.resolve("pom.xml"))) {
            found.add("sees pom.xml");
        }
        for (String rel : new String[] {".env", ".git", ".git/config", "keys/deploy.pem"}) {
            java.nio.file.Path p = root.resolve(rel);
            if (java.nio.file.Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                found.add("exists " + rel);
            }
            try {
                found.add("read " + rel + new String(java.nio.file.Files.readAllBytes(p)));
            } catch (Exception e) {
            }
            try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(p)) {
                found.add("listed " + rel);
            } catch (Exception e) {
            }
        }
        try (java.util.stream.Stream<java.nio.file.Path> w = java.nio.file.Files.walk(root)) {
            w.forEach(p -> {
                String n = String.valueOf(p.getFileName());
                if (n.startsWith(".env") || n.startsWith(".git") || n.endsWith(".pem")) {
                    found.add("walked " + p);
                }
                try {
                    if (java.nio.file.Files.isRegularFile(p) && new String(java.nio.file.Files.readAllBytes(p)).contains("SECRET-MARKER")) {
                        found.add("secret " + p);
                    }
                } catch (Exception e) {
                }
            });
        } catch (Exception e) {
            found.add("walk failed " + e);
        }
        for (String rel : new String[] {"evil.txt", "pom.xml", "target/classes/com/shop/Money.class", "src/main/java/com/shop/Pricing.java"}) {
            try {
                java.nio.file.Files.write(root.resolve(rel), new byte[] {'x'}, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                found.add("wrote " + rel);
            } catch (Exception e) {
            }
        }
        return String.join("; ", found);
    }
`

// goodDiscount is the right body of the fixture's applyDiscount: it uses
// the project's Money and the class's MAX_PERCENT.
const goodDiscount = `if (percent < 0 || percent > MAX_PERCENT) {
            throw new IllegalArgumentException("percent " + percent);
        }
        return Money.roundCents(cents * (100.0 - percent) / 100);`

// TestJavaProjectClass runs candidates as the fixture's com.shop.Pricing:
// under its package, with the class's other members, the project's
// compiled helper class, and the tests' import of the class; the stub
// compiled into target/classes never stands in for a candidate.
func TestJavaProjectClass(t *testing.T) {
	pool, _, src := javaProjectPool(t)
	stub := `throw new UnsupportedOperationException("not written yet");`
	good := strings.Replace(src, stub, goodDiscount, 1)
	job := execute.Job{Programs: []string{good, src}, TimePolicy: execute.Within(10 * time.Second), Tests: []execute.Test{
		{Input: "Pricing.applyDiscount(5, 50)", Expected: "3L"},
		{Input: "Pricing.describe(Pricing.applyDiscount(1000, 15))", Expected: `"8.50"`},
		{Input: "Pricing.class.getName()", Expected: `"com.shop.Pricing"`},
	}}
	m, err := pool.Run(context.Background(), job, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j, r := range m.Results[0] {
		if r.Outcome != execute.Pass {
			t.Errorf("good candidate, test %d: %v %s %s", j, r.Outcome, r.Exception, r.Value)
		}
	}
	if r := m.Results[1][0]; r.Outcome != execute.Error || !strings.Contains(r.Exception, "UnsupportedOperationException") {
		t.Errorf("the stub on test 0: %v %s %q, want UnsupportedOperationException", r.Outcome, r.Exception, r.Value)
	}
}

// stamps returns every file of root with its size and modification time.
func stamps(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("find", root, "-printf", "%P %s %T@\n").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestJavaProjectHostile runs a hostile candidate in the fixture Maven
// project: it sees the project but finds no secret and no masked name,
// and cannot write into the project or its compiled classes.
func TestJavaProjectHostile(t *testing.T) {
	pool, fx, src := javaProjectPool(t)
	program := strings.Replace(src, "    private Pricing() {", "    static final String ROOT = "+strconv.Quote(fx.Root)+";\n"+javaProbe+"\n    private Pricing() {", 1)
	before := stamps(t, fx.Root)
	job := execute.Job{Programs: []string{program}, TimePolicy: execute.Within(20 * time.Second), Tests: []execute.Test{{Input: "Pricing.probe()"}}}
	m, err := pool.Run(context.Background(), job, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := m.Results[0][0]
	t.Logf("the probe: %v %s %q", r.Outcome, r.Exception, r.Value)
	if r.Outcome == execute.Error && strings.HasPrefix(r.Exception, "CompileError") {
		t.Fatalf("the probe does not compile: %s", r.Exception)
	}
	if !strings.Contains(r.Value, "sees pom.xml") {
		t.Errorf("the probe does not see the project: %v %s %q", r.Outcome, r.Exception, r.Value)
	}
	for _, bad := range []string{"exists", "read ", "listed", "walked", "secret", "wrote", "walk failed", "SECRET-MARKER"} {
		if strings.Contains(r.Value, bad) || strings.Contains(r.Exception, bad) {
			t.Errorf("the hostile candidate got through (%q): %s %q", bad, r.Exception, r.Value)
		}
	}
	if after := stamps(t, fx.Root); after != before {
		t.Errorf("the project changed:\n%s\nwant\n%s", after, before)
	}
}
