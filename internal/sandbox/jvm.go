package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// JVMConfig turns a sandbox into one for a Java virtual machine: Config.Python
// is then the JDK's bin/java, and the sandbox differs from a Python one in
// what it shows and how it limits.
//
//   - Files: the JDK's home directory (its own libraries, modules, conf) and
//     its configuration under /etc/java-<N>-openjdk, beside the system
//     library directories; no /bin/sh, no Python.
//   - No /proc at all. The JVM runs untrusted code in its own process, so
//     /proc/self/mem (its own memory, readable even under Landlock's read
//     rule) and /proc/self/fd (a way to reopen its descriptors by number)
//     must not exist. The JVM runs without them when started with
//     -XX:-UseContainerSupport and an absolute path to java.
//   - /tmp is mounted noexec, so a library written there cannot be mapped
//     executable (System.load).
//   - Files are generated read-only files under /ticoder (the worker's
//     compiled classes), written before the root becomes read-only.
//   - Rlimits: the JVM itself is PID 1 of the sandbox, so its address space
//     and process count are limited here rather than by a harness.
type JVMConfig struct {
	// Enabled selects the JVM sandbox.
	Enabled bool `json:"enabled,omitempty"`
	// Files maps file names (letters, digits, '.', '_', '-') to contents,
	// shown read-only as /ticoder/NAME.
	Files map[string][]byte `json:"files,omitempty"`
	// ReadOnly lists host files and directories (absolute paths: JUnit's
	// jar, a project's jars and class directories) shown read-only at the
	// same paths; a directory is shown whole.
	ReadOnly []string `json:"ro,omitempty"`
	// AddressSpace, if not 0, is RLIMIT_AS in bytes. A JVM reserves far
	// more address space than it uses (heap, code cache, class space,
	// thread stacks): prefer a memory cgroup, and set this only as the
	// fallback, well above the heap (-Xmx) plus about 1 GiB.
	AddressSpace uint64 `json:"as,omitempty"`
	// Processes, if not 0, is RLIMIT_NPROC: processes and threads of the
	// sandbox (a JVM needs some 20 threads of its own).
	Processes uint64 `json:"nproc,omitempty"`
}

// env is the JVM sandbox's environment: the scrubbed one, the JDK's library
// directory (the dynamic loader cannot expand java's $ORIGIN RUNPATH
// without /proc/self/exe) and few malloc arenas (each reserves 64 MiB of
// address space).
func (j JVMConfig) env(java string) []string {
	home := filepath.Dir(filepath.Dir(java))
	if real, err := filepath.EvalSymlinks(java); err == nil {
		home = filepath.Dir(filepath.Dir(real))
	}
	return append(append([]string(nil), scrubbedEnv...),
		"LD_LIBRARY_PATH="+filepath.Join(home, "lib")+":"+filepath.Join(home, "lib", "server"), "MALLOC_ARENA_MAX=2")
}

// filesDir is where JVMConfig.Files appear inside.
const filesDir = "/ticoder"

// fileName is what a JVMConfig.Files name may be.
var fileName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$`)

// layoutFor returns the layout of cfg's sandbox.
func layoutFor(cfg Config) (layout, error) {
	if cfg.JVM.Enabled {
		l, err := jvmLayout(cfg.Python)
		if err != nil {
			return l, err
		}
		for _, f := range cfg.JVM.ReadOnly {
			st, err := os.Stat(f)
			if !filepath.IsAbs(f) || err != nil || !st.Mode().IsRegular() && !st.IsDir() {
				return l, fmt.Errorf("read-only file %q: want an absolute path to a regular file or a directory", f)
			}
			if err := CheckShowable(f); err != nil {
				return l, err
			}
			if st.IsDir() {
				l.dirs = append(l.dirs, f)
			} else {
				l.files = append(l.files, f)
			}
		}
		return l, nil
	}
	if len(cfg.PythonPath) > 0 {
		return envLayout(cfg.Python, cfg.PythonPath, cfg.Project)
	}
	return pythonLayout(cfg.Python)
}

// jdkVersion matches the major version in a JDK's release file.
var jdkVersion = regexp.MustCompile(`(?m)^JAVA_VERSION="(\d+)`)

// JavaHome returns the home directory of the JDK that runs Java candidates:
// $TICODER_JAVA_HOME if set, else the one /usr/bin/java belongs to. It must
// have bin/java, bin/javac and a release file naming version 17 or later.
func JavaHome() (string, error) {
	home := os.Getenv("TICODER_JAVA_HOME")
	if home == "" {
		java, err := filepath.EvalSymlinks("/usr/bin/java")
		if err != nil {
			return "", fmt.Errorf("no Java found (/usr/bin/java: %v): install openjdk-17-jdk-headless "+
				"or set TICODER_JAVA_HOME to a JDK 17+", err)
		}
		home = filepath.Dir(filepath.Dir(java))
	}
	for _, f := range []string{"bin/java", "bin/javac"} {
		if _, err := os.Stat(filepath.Join(home, f)); err != nil {
			return "", fmt.Errorf("JDK %s has no %s (a JRE is not enough): install openjdk-17-jdk-headless "+
				"or set TICODER_JAVA_HOME", home, f)
		}
	}
	rel, err := os.ReadFile(filepath.Join(home, "release"))
	if err != nil {
		return "", fmt.Errorf("JDK %s: %w", home, err)
	}
	v := 0
	if m := jdkVersion.FindSubmatch(rel); m != nil {
		v, _ = strconv.Atoi(string(m[1]))
	}
	if v < 17 {
		return "", fmt.Errorf("JDK %s is older than 17: install openjdk-17-jdk-headless or set TICODER_JAVA_HOME", home)
	}
	return home, nil
}

// jdkFiles are the files of a JDK's lib directory that a JVM running
// java.base and javac needs (beside lib/server and lib/security): the
// runtime image and java.base's native libraries. The JDK's other native
// libraries (AWT, SCTP, attach, management, instrument, …) are not shown:
// code under test could otherwise System.load one into its own class
// loader and bind its JNI functions — some take raw memory addresses — to
// native methods of classes it defines. java.base's own libraries are
// loaded by the boot loader before any program runs, and the JVM refuses
// to load a library a second time into another loader.
var jdkFiles = []string{
	"modules", "jvm.cfg", "tzdb.dat", "libjava.so", "libjimage.so", "libjli.so", "libnet.so", "libnio.so",
	"libzip.so", "libverify.so", "libjsig.so", "libjsvml.so",
}

// jvmLayout finds what the JVM java (HOME/bin/java) needs: the parts of the
// JDK's home listed in jdkFiles, its conf directory and /etc/java-*
// configuration (conf links there), the dynamic loader and the system
// library directories, time zones and the C.UTF-8 locale.
func jvmLayout(java string) (layout, error) {
	l := layout{etc: etcFiles}
	if !filepath.IsAbs(java) {
		return l, fmt.Errorf("java %q: not an absolute path", java)
	}
	real, err := filepath.EvalSymlinks(java)
	if err != nil {
		return l, fmt.Errorf("java %s: %w", java, err)
	}
	home := filepath.Dir(filepath.Dir(real))
	if _, err := os.Stat(filepath.Join(home, "lib", "modules")); err != nil {
		return l, fmt.Errorf("java %s: no JDK runtime image (%w)", java, err)
	}
	interp, needed, err := elfDeps(real)
	if err != nil {
		return l, err
	}
	libs := existing(libraryDirs())
	var system []string // libjli.so is found through the JDK's own RUNPATH
	for _, n := range needed {
		if _, err := os.Stat(filepath.Join(home, "lib", n)); err != nil {
			system = append(system, n)
		}
	}
	if err := checkLibraries(java, interp, system, libs); err != nil {
		return l, err
	}
	l.dirs = append(libs, existing([]string{
		filepath.Join(home, "conf"), filepath.Join(home, "lib", "server"), filepath.Join(home, "lib", "security"),
	})...)
	for _, f := range jdkFiles {
		p := filepath.Join(home, "lib", f)
		if _, err := os.Stat(p); err != nil {
			if f == "modules" || f == "libjava.so" || f == "libjli.so" {
				return l, fmt.Errorf("java %s: %w", java, err)
			}
			continue
		}
		l.files = append(l.files, p)
	}
	confs, _ := filepath.Glob("/etc/java-*-openjdk")
	l.dirs = append(l.dirs, confs...)
	l.dirs = append(l.dirs, existing([]string{
		"/usr/share/zoneinfo", "/usr/lib/locale/C.utf8", "/usr/lib/locale/C.UTF-8",
	})...)
	l.files = append(l.files, java)
	if interp != "" {
		l.files = append(l.files, interp)
	}
	l.files = append(l.files, existing([]string{"/etc/ld.so.cache", "/etc/localtime"})...)
	return l, nil
}

// writeFiles creates /ticoder with the generated files.
func writeFiles(files map[string][]byte) error {
	if len(files) == 0 {
		return nil
	}
	dir := newRoot + filesDir
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("mkdir %s: %w", filesDir, err)
	}
	for name, content := range files {
		if !fileName.MatchString(name) || strings.Contains(name, "..") {
			return fmt.Errorf("generated file name %q: want letters, digits, '.', '_' and '-'", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o444); err != nil {
			return fmt.Errorf("write %s/%s: %w", filesDir, name, err)
		}
	}
	return nil
}

// setRlimits applies the JVM's address-space and process limits.
func (j JVMConfig) setRlimits() error {
	if j.AddressSpace > 0 {
		if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: j.AddressSpace, Max: j.AddressSpace}); err != nil {
			return fmt.Errorf("limit address space: %w", err)
		}
	}
	if j.Processes > 0 {
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: j.Processes, Max: j.Processes}); err != nil {
			return fmt.Errorf("limit processes: %w", err)
		}
	}
	return nil
}
