package sandbox

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}

// runPython runs src in a sandbox and returns its stdout.
func runPython(t *testing.T, src string) (string, string, error) {
	t.Helper()
	cmd, err := Command(Config{Args: []string{"-I", "-c", src}})
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

func TestSandboxBasics(t *testing.T) {
	out, stderr, err := runPython(t, `
import os, socket, sys
print("pid", os.getpid())
print("uid", os.getuid())
print("host", socket.gethostname())
print("env", sorted(os.environ))
print("root", [p for p in ("/work", "/root", "/home", "/usr/bin/python3", "/var") if os.path.exists(p)])
try:
    open("/usr/ticoder-probe", "w")
    print("usr-writable")
except OSError as e:
    print("usr-ro", type(e).__name__)
open("/tmp/x", "w").write("ok")
print("tmp", open("/tmp/x").read())
`)
	if err != nil {
		t.Fatalf("run: %v\nstderr: %s", err, stderr)
	}
	for _, want := range []string{"pid 1\n", "uid 0\n", "host sandbox\n", "usr-ro", "tmp ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	t.Log(out)
}
