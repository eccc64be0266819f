package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sleeper returns a not yet started sandbox that sleeps for a minute.
func sleeper(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd, err := Command(Config{Args: []string{"-I", "-c", "import time; time.sleep(60)"}})
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	return cmd
}

// activeCgroups returns a Cgroups with cgroups in use, closed at cleanup,
// or skips the test.
func activeCgroups(t *testing.T) *Cgroups {
	t.Helper()
	c := NewCgroups(CgroupsAuto, nil)
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	if c.version == 0 {
		t.Skipf("no cgroups here: %s", c)
	}
	return c
}

// inCgroup reports whether process pid's cgroup in some hierarchy ends in
// the given directory's path below its mount.
func inCgroup(t *testing.T, pid int, dir string) bool {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) == 3 && parts[2] != "/" && strings.HasSuffix(dir, parts[2]) {
			return true
		}
	}
	return false
}

// TestCgroupsOff: without cgroups a sandbox still starts, with no cgroup.
func TestCgroupsOff(t *testing.T) {
	t.Setenv(cgroupsEnv, "off")
	for _, mode := range []CgroupMode{CgroupsOff, CgroupsAuto} {
		c := NewCgroups(mode, nil)
		if !strings.HasPrefix(c.String(), "rlimits only") || c.Bounds(cgPids) {
			t.Errorf("mode %d: isolation %s", mode, c)
		}
		g, err := c.New(CgroupLimits{Memory: 1 << 30, Processes: 10})
		if g != nil || err != nil {
			t.Fatalf("mode %d: New = %v, %v; want nil, nil", mode, g, err)
		}
		cmd, err := Command(Config{Args: []string{"-I", "-c", "pass"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Start(cmd); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("sandbox without a cgroup: %v", err)
		}
		if err := errors.Join(g.Close(), c.Close()); err != nil {
			t.Error(err)
		}
	}
}

// TestCgroupLimitsAndRemoval: a sandbox starts inside its cgroup, whose
// control files hold the limits; Close kills it and removes the cgroup.
func TestCgroupLimitsAndRemoval(t *testing.T) {
	c := activeCgroups(t)
	t.Logf("isolation: %s", c)
	g, err := c.New(CgroupLimits{Memory: 300 << 20, Processes: 20})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		cgMemory: {"memory.limit_in_bytes": "314572800", "memory.memsw.limit_in_bytes": "314572800"},
		cgPids:   {"pids.max": "20"},
		cgCPU:    {"cpu.shares": "1024"},
	}
	if c.version == 2 {
		want[cgMemory] = map[string]string{"memory.max": "314572800", "memory.swap.max": "0"}
		want[cgCPU] = map[string]string{"cpu.weight": "100"}
	}
	for i, h := range c.hier {
		for _, ctrl := range h.controllers {
			for file, v := range want[ctrl] {
				b, err := os.ReadFile(filepath.Join(g.dirs[i], file))
				if errors.Is(err, os.ErrNotExist) && strings.Contains(file, "sw") {
					continue // no swap accounting
				}
				if got := strings.TrimSpace(string(b)); err != nil || got != v {
					t.Errorf("%s: %q, %v; want %q", file, got, err, v)
				}
			}
		}
	}
	cmd := sleeper(t)
	if err := g.Start(cmd); err != nil {
		t.Fatal(err)
	}
	for _, d := range g.Paths() {
		if !inCgroup(t, cmd.Process.Pid, d) {
			t.Errorf("sandbox %d is not in %s", cmd.Process.Pid, d)
		}
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("sandbox still ran when its cgroup was closed")
	}
	for _, d := range g.Paths() {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still exists after Close (%v)", d, err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range c.parents() {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) && c.version == 1 {
			t.Errorf("parent %s still exists after Close (%v)", p, err)
		}
	}
}

// TestCgroupHelperProcess is the process TestCgroupsOfKilledProcessRemoved
// kills: it starts a sandbox in a cgroup, prints the cgroup's paths and
// waits to be killed.
func TestCgroupHelperProcess(t *testing.T) {
	if os.Getenv("TICODER_CGROUP_HELPER") != "1" {
		t.Skip("helper process only")
	}
	c := NewCgroups(CgroupsAuto, nil)
	g, err := c.New(CgroupLimits{Memory: 256 << 20, Processes: 16})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Start(sleeper(t)); err != nil {
		t.Fatal(err)
	}
	fmt.Println(strings.Join(g.Paths(), " "))
	time.Sleep(time.Minute)
}

// TestCgroupsOfKilledProcessRemoved: the cgroups of a process that was
// killed (and could not remove them) are removed by the next NewCgroups.
func TestCgroupsOfKilledProcessRemoved(t *testing.T) {
	activeCgroups(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCgroupHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TICODER_CGROUP_HELPER=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Scan()
		line <- sc.Text()
	}()
	var paths []string
	select {
	case l := <-line:
		paths = strings.Fields(l)
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("helper printed nothing in 30 s")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if len(paths) == 0 || !strings.Contains(paths[0], "/ticoder-") {
		t.Fatalf("helper printed %q", paths)
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("the killed helper's cgroup %s is already gone (%v): nothing to test", p, err)
		}
	}
	NewCgroups(CgroupsAuto, nil).Close()
	for _, p := range paths {
		for _, d := range []string{p, filepath.Dir(p)} {
			if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("stale cgroup %s still exists (%v)", d, err)
			}
		}
	}
}

// TestCgroupV2Placement: with cgroup v2 mounted and writable, a sandbox is
// moved into its group and cgroup.kill ends it on Close. It needs no
// controllers, so it also runs where v2 has none (a hybrid set-up).
func TestCgroupV2Placement(t *testing.T) {
	mounts, err := readCgroupMounts()
	if err != nil {
		t.Fatal(err)
	}
	own, err := readOwnCgroups()
	if err != nil {
		t.Fatal(err)
	}
	self, err := selfCgroupOwner()
	if err != nil {
		t.Fatal(err)
	}
	h, err := setupCgroupV2(mounts, own, self.name(), nil, nil)
	if err != nil {
		t.Skipf("cgroup v2 unusable: %v", err)
	}
	c := &Cgroups{version: 2, self: self, hier: []cgHierarchy{h}, log: slog.Default(), live: map[*Cgroup]struct{}{}}
	defer c.Close()
	g, err := c.New(CgroupLimits{})
	if err != nil {
		t.Fatal(err)
	}
	cmd := sleeper(t)
	if err := g.Start(cmd); err != nil {
		t.Fatal(err)
	}
	if !inCgroup(t, cmd.Process.Pid, g.Paths()[0]) {
		t.Errorf("sandbox %d is not in %s", cmd.Process.Pid, g.Paths()[0])
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("sandbox still ran when its cgroup was closed")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(h.parent); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("parent %s still exists after Close (%v)", h.parent, err)
	}
}

// TestCgroupBoundsSandbox: a sandbox's cgroup alone (the init sets no
// process or memory rlimit) bounds its processes and memory.
func TestCgroupBoundsSandbox(t *testing.T) {
	c := activeCgroups(t)
	cases := []struct {
		name, ctrl, src string
		limits          CgroupLimits
		want            string
	}{
		{name: "processes", ctrl: cgPids, limits: CgroupLimits{Processes: 10}, want: "9\n", src: `
import os, time
n = 0
for _ in range(100):
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
    except OSError:
        break
    n += 1
print(n)
`}, // the sleepers die with the sandbox's init
		{name: "memory", ctrl: cgMemory, limits: CgroupLimits{Memory: 200 << 20}, want: "killed\n", src: `
import os, sys, time
pids = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        b = b'x' * (100 << 20)
        time.sleep(2)  # all three hold their memory at once
        os._exit(0)
    pids.append(pid)
status = [os.waitpid(p, 0)[1] for p in pids]
print('killed' if any(status) else 'all ran')
print('wait statuses', status, file=sys.stderr)
`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !c.Bounds(tc.ctrl) {
				t.Skipf("no %s controller: %s", tc.ctrl, c)
			}
			g, err := c.New(tc.limits)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			cmd, err := Command(Config{Args: []string{"-I", "-c", tc.src}})
			if err != nil {
				t.Fatal(err)
			}
			var out, errb strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errb
			defer func() { t.Logf("stderr: %s", errb.String()) }()
			if err := g.Start(cmd); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if out.String() != tc.want {
				t.Errorf("output %q, want %q", out.String(), tc.want)
			}
		})
	}
}

// TestParseCgroupFiles: mountinfo and /proc/PID/cgroup as a hybrid host, a
// pure v2 host and a v1 container with a bind-mounted subtree write them.
// TestWriteCgroupLimitsFiles: which control files get which values, written
// into a plain directory that has the files a kernel would create (the real
// files are checked by TestCgroupLimitsAndRemoval where this machine has
// cgroups).
// TestCgroupMoveHelper is the process TestCgroupV2MoveSelfToLeaf moves: it
// waits for a line on stdin, moves itself aside and prints its v2 cgroup.
// TestCgroupV2MoveSelfToLeaf: a process alone in its v2 cgroup moves itself
// into PARENT/supervisor (so that the cgroup can hand controllers down); one
// that shares its cgroup refuses to.
