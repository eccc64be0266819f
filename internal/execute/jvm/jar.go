package jvm

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
)

// jworkerSources are the JVM worker's Java sources (module ticoder.jworker).
//
//go:embed jworker
var jworkerSources embed.FS

// workerSourceNames lists the embedded files of the JVM worker, sorted.
func workerSourceNames() ([]string, error) {
	var names []string
	err := fs.WalkDir(jworkerSources, "jworker", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("java worker sources: %w", err)
	}
	sort.Strings(names)
	return names, nil
}

// workerJar returns the JVM worker compiled by the JDK at javaHome, as a
// modular jar, and a hash of its sources and JDK (part of every cache key).
// The jar is kept in the user's cache directory, so javac runs once per
// version of the worker.
func workerJar(ctx context.Context, javaHome string) ([]byte, string, error) {
	h := sha256.New()
	release, err := os.ReadFile(filepath.Join(javaHome, "release"))
	if err != nil {
		return nil, "", fmt.Errorf("java worker: %w", err)
	}
	fmt.Fprintf(h, "%d:%s", len(release), release)
	names, err := workerSourceNames()
	if err != nil {
		return nil, "", err
	}
	for _, n := range names {
		b, err := jworkerSources.ReadFile(n)
		if err != nil {
			return nil, "", fmt.Errorf("java worker sources: %w", err)
		}
		fmt.Fprintf(h, "%d:%s%d:%s", len(n), n, len(b), b)
	}
	sum := hex.EncodeToString(h.Sum(nil))[:24]
	var cached string
	if dir, err := os.UserCacheDir(); err == nil {
		cached = filepath.Join(dir, "ticoder", "jworker-"+sum+".jar")
		if b, err := os.ReadFile(cached); err == nil && len(b) > 0 {
			return b, sum, nil
		}
	}
	jar, err := buildWorkerJar(ctx, javaHome, names)
	if err != nil {
		return nil, "", err
	}
	if cached != "" {
		_ = os.MkdirAll(filepath.Dir(cached), 0o755)
		tmp := cached + fmt.Sprintf(".%d.tmp", os.Getpid())
		if os.WriteFile(tmp, jar, 0o644) == nil {
			_ = os.Rename(tmp, cached)
		}
	}
	return jar, sum, nil
}

// buildWorkerJar compiles the worker's sources with the host's javac (they
// are ticoder's own, trusted code) and zips the classes.
func buildWorkerJar(ctx context.Context, javaHome string, names []string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "ticoder-jworker-")
	if err != nil {
		return nil, fmt.Errorf("java worker: %w", err)
	}
	defer os.RemoveAll(dir)
	src, out := filepath.Join(dir, "src"), filepath.Join(dir, "out")
	// The sources are UTF-8 whatever the locale says (with LANG unset,
	// javac would read them as ASCII).
	args := []string{"-d", out, "-encoding", "UTF-8", "-J-Dfile.encoding=UTF-8", "-nowarn", "-Xlint:-removal,-deprecation",
		"--add-exports", "java.base/jdk.internal.loader=ticoder.jworker"}
	for _, n := range names {
		b, _ := jworkerSources.ReadFile(n)
		p := filepath.Join(src, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("java worker: %w", err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, fmt.Errorf("java worker: %w", err)
		}
		args = append(args, p)
	}
	cmd := exec.CommandContext(ctx, filepath.Join(javaHome, "bin", "javac"), args...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("compile the java worker: %v: %s", err, msg)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("java worker jar: %w", err)
	}
	return buf.Bytes(), nil
}
