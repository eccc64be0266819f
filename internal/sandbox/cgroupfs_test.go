package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseCgroupOwner: parent names round-trip, and a parent counts as
// stale only if its process is gone from this pid namespace.
func TestParseCgroupOwner(t *testing.T) {
	cases := []struct {
		name string
		want cgOwner
		ok   bool
	}{
		{"ticoder-123-456-789", cgOwner{pid: 123, start: 456, pidns: 789}, true},
		{"ticoder-1-0-4026531836", cgOwner{pid: 1, start: 0, pidns: 4026531836}, true},
		{"ticoder-123-456", cgOwner{}, false},
		{"ticoder-x-456-789", cgOwner{}, false},
		{"ticoder-123-45x-789", cgOwner{}, false},
		{"ticoder-test-123", cgOwner{}, false},
		{"w-0123456789abcdef", cgOwner{}, false},
		{"user.slice", cgOwner{}, false},
	}
	for _, c := range cases {
		got, ok := parseCgroupOwner(c.name)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("parseCgroupOwner(%q) = %+v, %v; want %+v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	self, err := selfCgroupOwner()
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := parseCgroupOwner(self.name()); !ok || got != self || got.goneFrom(self) {
		t.Errorf("own name %q parses to %+v, %v", self.name(), got, ok)
	}
	ppid := os.Getppid()
	pstart, err := procStartTime(ppid)
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("/bin/true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		o    cgOwner
		gone bool
	}{
		{"exited", cgOwner{pid: dead.Process.Pid, start: self.start, pidns: self.pidns}, true},
		{"pid reused", cgOwner{pid: self.pid, start: self.start + 1, pidns: self.pidns}, true},
		{"other pid namespace", cgOwner{pid: dead.Process.Pid, start: 1, pidns: self.pidns + 1}, false},
		{"running", cgOwner{pid: ppid, start: pstart, pidns: self.pidns}, false},
	} {
		if got := c.o.goneFrom(self); got != c.gone {
			t.Errorf("%s: goneFrom = %v, want %v", c.name, got, c.gone)
		}
	}
}

func TestParseCgroupFiles(t *testing.T) {
	cases := []struct {
		name, mountinfo, own string
		ctrl                 string // "" for v2
		wantDir              string
	}{
		{
			name: "hybrid, v1 memory",
			mountinfo: "30 25 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
				"31 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n" +
				"32 25 0:28 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n" +
				"33 25 0:29 / /tmp rw - tmpfs tmpfs rw\n",
			own:     "4:memory:/process_api/abc\n2:cpu,cpuacct:/\n0::/\n",
			ctrl:    "memory",
			wantDir: "/sys/fs/cgroup/memory/process_api/abc",
		},
		{
			name:      "hybrid, co-mounted cpu",
			mountinfo: "31 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n",
			own:       "2:cpu,cpuacct:/user.slice\n",
			ctrl:      "cpu",
			wantDir:   "/sys/fs/cgroup/cpu,cpuacct/user.slice",
		},
		{
			name:      "pure v2",
			mountinfo: "35 24 0:30 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n",
			own:       "0::/user.slice/user-1000.slice/user@1000.service/app.slice/run-1.scope\n",
			wantDir:   "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/run-1.scope",
		},
		{
			name:      "v1 container, subtree mounted",
			mountinfo: "40 38 0:26 /docker/f00 /sys/fs/cgroup/pids ro,nosuid - cgroup cgroup rw,pids\n",
			own:       "9:pids:/docker/f00/sub\n",
			ctrl:      "pids",
			wantDir:   "/sys/fs/cgroup/pids/sub",
		},
		{
			name:      "escaped mount point",
			mountinfo: "35 24 0:30 / /mnt/my\\040cgroups rw - cgroup2 cgroup2 rw\n",
			own:       "0::/a\n",
			wantDir:   "/mnt/my cgroups/a",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mounts, err := parseCgroupMounts(strings.NewReader(c.mountinfo))
			if err != nil {
				t.Fatal(err)
			}
			own := parseOwnCgroups(c.own)
			i := -1
			for j, m := range mounts {
				if (c.ctrl == "" && m.v2) || (c.ctrl != "" && !m.v2 && slices.Contains(m.controllers, c.ctrl)) {
					i = j
					break
				}
			}
			if i < 0 {
				t.Fatalf("no mount for %q in %+v", c.ctrl, mounts)
			}
			dir, err := mounts[i].dir(own[c.ctrl])
			if err != nil || dir != c.wantDir {
				t.Errorf("dir = %q, %v; want %q", dir, err, c.wantDir)
			}
		})
	}
	m := cgroupMount{point: "/sys/fs/cgroup/pids", root: "/docker/f00"}
	if dir, err := m.dir("/docker/other"); err == nil {
		t.Errorf("cgroup outside the mounted subtree: dir %q, want an error", dir)
	}
}

func TestWriteCgroupLimitsFiles(t *testing.T) {
	all := []string{cgMemory, cgPids, cgCPU}
	v1Files := []string{"memory.limit_in_bytes", "memory.memsw.limit_in_bytes", "memory.swappiness", "pids.max", "cpu.shares"}
	v2Files := []string{"memory.max", "memory.swap.max", "pids.max", "cpu.weight"}
	lim := CgroupLimits{Memory: 1 << 30, Processes: 40}
	cases := []struct {
		name    string
		version int
		ctrls   []string
		files   []string // present before
		limits  CgroupLimits
		want    map[string]string
		wantErr bool
	}{
		{name: "v2", version: 2, ctrls: all, files: v2Files, limits: lim, want: map[string]string{
			"memory.max": "1073741824", "memory.swap.max": "0", "pids.max": "40", "cpu.weight": "100"}},
		{name: "v2 without swap", version: 2, ctrls: all, files: []string{"memory.max", "pids.max", "cpu.weight"}, limits: lim,
			want: map[string]string{"memory.max": "1073741824", "pids.max": "40", "cpu.weight": "100"}},
		{name: "v1", version: 1, ctrls: all, files: v1Files, limits: lim, want: map[string]string{
			"memory.limit_in_bytes": "1073741824", "memory.memsw.limit_in_bytes": "1073741824",
			"memory.swappiness": "0", "pids.max": "40", "cpu.shares": "1024"}},
		{name: "v1 without swap accounting", version: 1, ctrls: all, files: []string{"memory.limit_in_bytes", "memory.swappiness", "pids.max", "cpu.shares"},
			limits: lim, want: map[string]string{"memory.limit_in_bytes": "1073741824", "memory.swappiness": "0", "pids.max": "40", "cpu.shares": "1024"}},
		{name: "v1 pids only", version: 1, ctrls: []string{cgPids}, files: v1Files, limits: CgroupLimits{Memory: 1 << 30, Processes: 8},
			want: map[string]string{"pids.max": "8"}},
		{name: "no bounds", version: 2, ctrls: all, files: v2Files, want: map[string]string{"cpu.weight": "100"}},
		{name: "controller missing", version: 2, ctrls: all, files: []string{"memory.max", "cpu.weight"}, limits: lim, wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range c.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := writeCgroupLimits(c.version, dir, c.ctrls, c.limits)
			if (err != nil) != c.wantErr {
				t.Fatalf("writeCgroupLimits: %v, want error %v", err, c.wantErr)
			}
			if c.wantErr {
				return
			}
			got := map[string]string{}
			for _, f := range c.files {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if len(b) > 0 {
					got[f] = string(b)
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("control files (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCgroupMoveHelper(t *testing.T) {
	dir := os.Getenv("TICODER_CGROUP_MOVE_HELPER")
	if dir == "" {
		t.Skip("helper process only")
	}
	bufio.NewScanner(os.Stdin).Scan()
	if err := moveSelfToLeaf(dir, filepath.Join(dir, "parent")); err != nil {
		fmt.Println("error:", err)
		return
	}
	own, err := readOwnCgroups()
	fmt.Println(own[""], err)
}

func TestCgroupV2MoveSelfToLeaf(t *testing.T) {
	mounts, err := readCgroupMounts()
	if err != nil {
		t.Fatal(err)
	}
	own, err := readOwnCgroups()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(mounts, func(m cgroupMount) bool { return m.v2 })
	if i < 0 {
		t.Skip("no cgroup v2 mount")
	}
	base, err := mounts[i].dir(own[""])
	if err != nil {
		t.Skip(err)
	}
	dir := filepath.Join(base, fmt.Sprintf("ticoder-test-%d", os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("cgroup v2 not writable: %v", err)
	}
	defer func() {
		var dirs []string
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		slices.Reverse(dirs) // children first
		for _, d := range dirs {
			if err := rmdirCgroup(d); err != nil {
				t.Error(err)
			}
		}
	}()
	if err := moveSelfToLeaf(base, filepath.Join(dir, "unused")); err == nil || !strings.Contains(err.Error(), "besides ticoder") {
		t.Errorf("moving aside from a shared cgroup: %v, want a refusal", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCgroupMoveHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TICODER_CGROUP_MOVE_HELPER="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(fmt.Sprint(cmd.Process.Pid)), 0); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatal(err)
	}
	fmt.Fprintln(stdin, "go")
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v\n%s", err, out.String())
	}
	want := strings.TrimPrefix(filepath.Join(dir, "parent", cgroupSupervisorLeaf), mounts[i].point)
	if !strings.Contains(out.String(), want+" <nil>") {
		t.Errorf("helper printed %q, want its cgroup %s", out.String(), want)
	}
}
