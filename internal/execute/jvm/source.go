package jvm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// ErrNoJUnit is returned by RunSource when JUnit 5's standalone console
// launcher is not installed.
var ErrNoJUnit = errors.New("JUnit 5 is not installed (apt-get install junit5, or set $TICODER_JUNIT_JAR)")

// JUnitJar returns the path of JUnit 5's standalone console launcher:
// $TICODER_JUNIT_JAR if set, else Debian's (package junit5); ErrNoJUnit
// when there is none.
func JUnitJar() (string, error) {
	p := os.Getenv("TICODER_JUNIT_JAR")
	if p == "" {
		p = "/usr/share/java/junit-platform-console-standalone.jar"
	}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return "", ErrNoJUnit
	}
	return p, nil
}

// maxSourceOutput bounds the output RunSource keeps.
const maxSourceOutput = 16 << 10

// SourceRun is what a Java source file run by RunSource did.
type SourceRun struct {
	// Output is its standard output and error, at most 16 KiB.
	Output string
	// Exit is its exit status (-1 when it was killed at its limit).
	Exit int
}

// SourceJob is what RunSource runs: Main, a Java source file, in
// source-file mode with Args, and Files beside it in its directory,
// /ticoder (their names must be plain file names).
type SourceJob struct {
	// Main is the source of the file run (its first class's main).
	Main string
	// Args are main's arguments.
	Args []string
	// Files are more files, by name, that main may read.
	Files map[string]string
}

// sourceFileName is what a file of SourceJob.Files may be called.
var sourceFileName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$`)

// RunSource runs job.Main in source-file mode (`java Main.java args…`:
// compiled in memory, its first class's main run) in a fresh sandboxed
// JVM, like the workers' (no /proc, read-only root, the pool's memory and
// process limits), with JUnit 5's standalone jar on the class path (shown
// read-only) and job.Files in /ticoder, gives it stdin, and kills it after
// timeout. It is for ticoder's own checks of an exported JUnit class: Main
// is ticoder's, the files hold the user's chosen program and tests,
// untrusted like any candidate. In a pool with a JavaProject, the project
// is shown as to the workers and its class path is the system property
// ticoder.classpath.
func (p *Pool) RunSource(ctx context.Context, job SourceJob, stdin string, timeout time.Duration) (SourceRun, error) {
	jarPath, err := JUnitJar()
	if err != nil {
		return SourceRun{}, err
	}
	if jarPath, err = filepath.EvalSymlinks(jarPath); err != nil {
		return SourceRun{}, fmt.Errorf("junit jar: %w", err)
	}
	files := map[string][]byte{"Main.java": []byte(job.Main)}
	for name, text := range job.Files {
		if !sourceFileName.MatchString(name) || files[name] != nil {
			return SourceRun{}, fmt.Errorf("run java source: %q cannot be a file's name beside Main.java", name)
		}
		files[name] = []byte(text)
	}
	s := &p.drv.spec
	cfg := s.cfg
	cfg.Python = filepath.Join(s.home, "bin", "java")
	cfg.Args = []string{
		fmt.Sprintf("-Xmx%dm", s.heapMiB), "-Xss8m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=64m", "-XX:CompressedClassSpaceSize=128m",
		"-XX:MaxMetaspaceSize=256m", "-XX:-UsePerfData", "-XX:+DisableAttachMechanism", "-Xrs",
		"-XX:-UseContainerSupport", "-XX:+ExitOnOutOfMemoryError", "-XX:-CreateCoredumpOnCrash",
		"-XX:ErrorFile=/dev/null", "-Djava.io.tmpdir=/tmp", "-Duser.home=/tmp", "-Dfile.encoding=UTF-8",
		"-Dsun.stdout.encoding=UTF-8", "-Dsun.stderr.encoding=UTF-8",
	}
	cfg.Args = append(append(cfg.Args, s.project.properties()...), "-cp", jarPath, "/ticoder/Main.java")
	cfg.Args = append(cfg.Args, job.Args...)
	cfg.JVM = sandbox.JVMConfig{Enabled: true, Files: files, ReadOnly: append([]string{jarPath}, s.project.readOnly()...),
		Processes: uint64(s.limits.Processes) + 48}
	if !s.cgroups.Bounds("memory") {
		cfg.JVM.AddressSpace = s.addressSpace
	}
	cmd, err := sandbox.Command(cfg)
	if err != nil {
		return SourceRun{}, err
	}
	cg, err := s.cgroups.New(s.limits)
	if err != nil {
		return SourceRun{}, fmt.Errorf("run java source: %w", err)
	}
	defer cg.Close()
	out := execute.NewCapWriter(maxSourceOutput)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Stdin = strings.NewReader(stdin)
	if err := cg.Start(cmd); err != nil {
		return SourceRun{}, fmt.Errorf("run java source: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-done:
		return SourceRun{Output: out.String(), Exit: cmd.ProcessState.ExitCode()}, nil
	case <-timer.C:
		_ = cmd.Process.Kill()
		<-done
		return SourceRun{Output: out.String(), Exit: -1}, nil
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		return SourceRun{}, ctx.Err()
	}
}
