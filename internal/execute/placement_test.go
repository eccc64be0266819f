package execute

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// twoCPUs returns the CPUs this process may run on, skipping the test
// where there are fewer than two.
func twoCPUs(t *testing.T) []int {
	t.Helper()
	cpus := allowedCPUs()
	if len(cpus) < 2 {
		t.Skipf("placement needs two CPUs; this process may use %v", cpus)
	}
	return cpus
}

func TestCPUPlacerSpreadsWorkers(t *testing.T) {
	p := &cpuPlacer{cpus: []int{2, 5}, count: make([]int, 2)}
	var got []int
	for range 4 {
		got = append(got, p.take()[0])
	}
	if want := []int{2, 5, 2, 5}; !slices.Equal(got, want) {
		t.Fatalf("four workers on %v, want %v", got, want)
	}
	p.put([]int{5}) // a worker on 5 exited: its replacement goes there
	if c := p.take()[0]; c != 5 {
		t.Errorf("replacement on CPU %d, want 5", c)
	}
	p.put([]int{7}) // not ours: ignored
	p.put(nil)
	if !slices.Equal(p.count, []int{2, 2}) {
		t.Errorf("counts %v, want [2 2]", p.count)
	}
	var none *cpuPlacer
	if c := none.take(); c != nil {
		t.Errorf("a nil placer placed on %v", c)
	}
	none.put([]int{0})
}

func TestNewCPUPlacerOnlyWhereEven(t *testing.T) {
	n := len(twoCPUs(t))
	cases := []struct {
		workers int
		env     string
		want    bool
	}{
		{n, "", true},
		{2 * n, "", true},
		{n - 1, "", false},        // fewer workers than CPUs
		{2*n + 1, "", false},      // not a multiple: some CPUs would be fuller
		{2 * n, "off", false},     // TICODER_PIN=off
		{2 * n, "anything", true}, // only "off" turns it off
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d workers %q", c.workers, c.env), func(t *testing.T) {
			t.Setenv(placementEnv, c.env)
			if got := newCPUPlacer(c.workers) != nil; got != c.want {
				t.Errorf("placing %d workers on %d CPUs: %v, want %v", c.workers, n, got, c.want)
			}
		})
	}
}

// cpusAllowed reads the CPUs a host process may run on from /proc.
func cpusAllowed(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no Cpus_allowed_list for %d", pid)
	return ""
}

// TestWorkersPinnedEvenly runs a pool of two workers per CPU until every
// worker has started and checks that each runs on one CPU, two on each,
// and that a program can neither leave its CPU nor see more than it.
func TestWorkersPinnedEvenly(t *testing.T) {
	t.Setenv(placementEnv, "")
	cpus := twoCPUs(t)
	p := newTestPool(t, Options{Workers: 2 * len(cpus)})
	prog := `import os, time
def f():
    time.sleep(0.3)
    try:
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
        moved = "moved"
    except OSError as e:
        moved = type(e).__name__
    return [sorted(os.sched_getaffinity(0)), moved]
`
	var progs []string
	for i := range 4 * len(cpus) {
		progs = append(progs, fmt.Sprintf("%s# %d\n", prog, i))
	}
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: []Test{{Input: "f()", Expected: "0"}}, TimePolicy: Within(10 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range m.Results {
		v := row[0].Value
		if !strings.HasSuffix(v, ", 'PermissionError']") || strings.Count(v, ",") != 1 {
			t.Errorf("program %d: %s %q, want one CPU and PermissionError", i, row[0].Outcome, v)
		}
	}
	perCPU := map[string]int{}
	for range p.Workers() {
		w := <-p.slots
		defer func() { p.slots <- w }()
		if w == nil {
			t.Fatal("a worker never started")
		}
		perCPU[cpusAllowed(t, w.cmd.Process.Pid)]++
	}
	for _, c := range cpus {
		if n := perCPU[strconv.Itoa(c)]; n != 2 {
			t.Errorf("CPU %d has %d workers, want 2 (workers per CPU list: %v)", c, n, perCPU)
		}
	}
}
