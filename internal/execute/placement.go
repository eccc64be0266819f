package execute

import (
	"fmt"
	"os"
	"slices"
	"sync"

	"golang.org/x/sys/unix"
)

// placementEnv set to "off" lets the kernel place workers on CPUs as it
// likes (see cpuPlacer).
const placementEnv = "TICODER_PIN"

// cpuPlacer spreads a pool's Python workers evenly over the CPUs the
// process may use: each worker, and every process it forks, stays on one
// CPU. A worker and the processes it talks to for each program (the zygote,
// the program's process) then wake each other on the same CPU, with warm
// caches and no interrupt to another CPU (unpinned, the full check of the
// recorded samples sent about twice as many rescheduling interrupts between
// the two CPUs, and a VM's host took more of their time; BENCHMARKS.md).
// Programs cannot move themselves (sched_setaffinity is refused inside the
// sandbox), so with a cgroup per worker each still gets an equal share of
// its CPU, the same share as unpinned. A nil *cpuPlacer places nothing.
type cpuPlacer struct {
	mu    sync.Mutex
	cpus  []int // the CPUs of the process's affinity mask
	count []int // live workers on each of cpus
}

// newCPUPlacer returns a placer for a pool of workers, or nil where placing
// would not spread the load evenly: a single CPU, fewer workers than CPUs
// (two such pools would crowd the same CPUs while others idle), a number
// of workers that is not a multiple of the CPUs (workers on fuller CPUs
// would get a smaller share), or TICODER_PIN=off. Without a sandbox there
// is no init to pin Python: NewPool makes no placer then.
func newCPUPlacer(workers int) *cpuPlacer {
	if os.Getenv(placementEnv) == "off" {
		return nil
	}
	cpus := allowedCPUs()
	if len(cpus) < 2 || workers < len(cpus) || workers%len(cpus) != 0 {
		return nil
	}
	return &cpuPlacer{cpus: cpus, count: make([]int, len(cpus))}
}

// allowedCPUs returns the CPUs in this process's affinity mask (nil if
// it cannot be read).
func allowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for i := 0; i < len(set)*64 && len(cpus) < set.Count(); i++ {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	return cpus
}

// take returns the CPU for a new worker, the one with the fewest live
// workers (the lowest such), or nil when p places nothing. Each CPU taken
// must be given back with put once its worker has exited.
func (p *cpuPlacer) take() []int {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.Index(p.count, slices.Min(p.count))
	p.count[i]++
	return []int{p.cpus[i]}
}

// put gives back the CPUs returned by take.
func (p *cpuPlacer) put(cpus []int) {
	if p == nil || len(cpus) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := slices.Index(p.cpus, cpus[0]); i >= 0 && p.count[i] > 0 {
		p.count[i]--
	}
}

// String describes the placement for logs: the CPUs, or "none".
func (p *cpuPlacer) String() string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(p.cpus)
}
