package projecttest

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// JavaProject is a copy of the fixture Maven project testdata/javaproject
// (package com.shop: Money, a helper, and Pricing, whose applyDiscount is a
// stub), compiled into target/classes.
type JavaProject struct {
	// Root is the copy's directory, outside /tmp and readable by every
	// user.
	Root string
}

// JavaProjectFixture copies testdata/javaproject as ProjectFixture copies
// its project (.git, .env and keys/deploy.pem hold SecretMarker) and
// compiles its main sources with javac into target/classes. It skips the
// test when there is no JDK.
func JavaProjectFixture(t testing.TB) JavaProject {
	t.Helper()
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	tmp, root := copyTree(t, filepath.Join("testdata", "javaproject"))
	srcs, err := filepath.Glob(filepath.Join(root, "src", "main", "java", "com", "shop", "*.java"))
	if err != nil || len(srcs) == 0 {
		t.Fatalf("no sources in the Java fixture: %v", err)
	}
	args := append([]string{"-d", filepath.Join(root, "target", "classes"), "-encoding", "UTF-8"}, srcs...)
	if out, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	if err := exec.Command("chmod", "-R", "a+rX", tmp).Run(); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	return JavaProject{Root: real}
}
