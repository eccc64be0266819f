package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// CgroupMode says whether sandboxes may be put into cgroups of their own.
type CgroupMode int

const (
	// CgroupsAuto uses cgroup v2 where this process's cgroup is delegated
	// to it, cgroup v1 where its hierarchies are writable (root), and
	// rlimits alone otherwise. TICODER_CGROUPS=off in the environment makes
	// it behave as CgroupsOff.
	CgroupsAuto CgroupMode = iota
	// CgroupsOff uses rlimits alone.
	CgroupsOff
)

// cgroupsEnv set to "off" turns cgroups off (CgroupsAuto only).
const cgroupsEnv = "TICODER_CGROUPS"

func cgroupsFromEnv() string { return os.Getenv(cgroupsEnv) }

// The controllers a sandbox's cgroup uses.
const (
	cgMemory = "memory"
	cgPids   = "pids"
	cgCPU    = "cpu"
)

func wantedCgroupControllers() []string { return []string{cgMemory, cgPids, cgCPU} }

// cgroupSupervisorLeaf is the cgroup v2 leaf this process moves itself into when
// its own cgroup must hand its controllers down (see setupCgroupV2).
const cgroupSupervisorLeaf = "supervisor"

// cgroupGroupPrefix starts the name of every sandbox's cgroup.
const cgroupGroupPrefix = "w-"

// CgroupLimits bound one sandbox — the process Cgroup.Start starts and
// everything it starts — as a whole. A zero field means no bound.
type CgroupLimits struct {
	// Memory is the most memory in bytes: anonymous memory, page cache and
	// the pages of its tmpfs, with no swap beyond it.
	Memory int64
	// Processes is the most processes and threads at a time.
	Processes int64
}

// Cgroups gives every sandbox of one pool a cgroup of its own, so that one
// sandbox's load cannot change another's results: each is bounded in memory
// (swap and tmpfs included) and in processes, and gets an equal CPU weight
// (cpu.weight 100 / cpu.shares 1024), so a program that starts thirty busy
// loops shares one worker's part of the CPU, not the machine.
//
// The groups live in a per-process parent, ticoder-PID-STARTTIME-PIDNS,
// created beneath this process's own cgroup; a stale parent whose process is
// gone (from this pid namespace) is removed, with whatever is left in it,
// when the next Cgroups is made there. With cgroup v2 the own cgroup must
// be delegated (writable, with memory and pids in cgroup.controllers), e.g.
// `systemd-run --user --scope -p Delegate=yes ticoder …`; if the process is
// alone in it, it moves itself into the leaf PARENT/supervisor so that the
// controllers can be handed down (that leaf stays until the next start). With
// cgroup v1 each of the memory, pids and cpu hierarchies is used where it is
// writable, which in practice means root. Where neither works (an ordinary
// user without delegation, a read-only /sys/fs/cgroup) Cgroups is inactive:
// New returns a nil *Cgroup and the sandboxes rely on their rlimits alone.
//
// A Cgroups is safe for concurrent use. A nil *Cgroups is inactive.
type Cgroups struct {
	version int // 1 or 2; 0 when inactive
	self    cgOwner
	hier    []cgHierarchy
	reason  string // why inactive
	log     *slog.Logger

	mu   sync.Mutex
	live map[*Cgroup]struct{}
}

// cgHierarchy is one cgroup tree in use: the only one with v2, one per mounted
// controller hierarchy with v1.
type cgHierarchy struct {
	base        string   // this process's own cgroup directory
	parent      string   // base/ticoder-PID-STARTTIME-PIDNS
	controllers []string // what its groups bound
}

// NewCgroups finds out which isolation this machine allows, removes stale
// parents left by processes that are gone, and logs (at debug level) what is
// active. It never fails: without usable cgroups it returns an inactive
// Cgroups. log may be nil (slog.Default).
func NewCgroups(mode CgroupMode, log *slog.Logger) *Cgroups {
	if log == nil {
		log = slog.Default()
	}
	c := &Cgroups{log: log, live: map[*Cgroup]struct{}{}}
	switch env := cgroupsFromEnv(); {
	case mode == CgroupsOff:
		c.reason = "cgroups turned off by the caller"
	case env == "off":
		c.reason = "cgroups turned off by " + cgroupsEnv + "=off"
	default:
		if env != "" && env != "auto" {
			log.Warn("sandbox: unknown "+cgroupsEnv+" value, using auto", "value", env)
		}
		c.detect(wantedCgroupControllers(), []string{cgMemory, cgPids})
	}
	if c.version == 0 {
		log.Debug("sandbox isolation: rlimits only", "reason", c.reason)
		return c
	}
	for _, h := range c.hier {
		c.removeStale(h)
	}
	log.Debug("sandbox isolation: "+c.String(), "parents", c.parents())
	return c
}

// detect sets up the first cgroup version that works, v2 before v1.
func (c *Cgroups) detect(wanted, required []string) {
	self, err := selfCgroupOwner()
	if err != nil {
		c.reason = err.Error()
		return
	}
	c.self = self
	name := self.name()
	mounts, err := readCgroupMounts()
	if err != nil {
		c.reason = err.Error()
		return
	}
	own, err := readOwnCgroups()
	if err != nil {
		c.reason = err.Error()
		return
	}
	h, err2 := setupCgroupV2(mounts, own, name, wanted, required)
	if err2 == nil {
		c.version, c.hier = 2, []cgHierarchy{h}
		return
	}
	hs, err1 := setupCgroupV1(mounts, own, name, wanted)
	if len(hs) > 0 {
		c.version, c.hier = 1, hs
		if err1 != nil {
			c.log.Debug("sandbox: some cgroup v1 controllers unusable", "error", err1)
		}
		return
	}
	c.reason = fmt.Sprintf("cgroup v2: %v; cgroup v1: %v", err2, err1)
}

// String says which isolation is active, e.g. "cgroup v1 (memory, pids,
// cpu)" or "rlimits only (…why…)".
func (c *Cgroups) String() string {
	if c == nil || c.version == 0 {
		reason := "no cgroups"
		if c != nil {
			reason = c.reason
		}
		return "rlimits only (" + reason + ")"
	}
	var ctrls []string
	for _, h := range c.hier {
		ctrls = append(ctrls, h.controllers...)
	}
	return fmt.Sprintf("cgroup v%d (%s)", c.version, strings.Join(ctrls, ", "))
}

// Bounds reports whether sandboxes' cgroups use the named controller
// ("memory", "pids" or "cpu").
func (c *Cgroups) Bounds(controller string) bool {
	if c == nil {
		return false
	}
	for _, h := range c.hier {
		if slices.Contains(h.controllers, controller) {
			return true
		}
	}
	return false
}

func (c *Cgroups) parents() []string {
	var out []string
	for _, h := range c.hier {
		out = append(out, h.parent)
	}
	return out
}

// New creates the cgroup of one sandbox with the given limits. It returns
// nil (and no error) when c is inactive; a nil *Cgroup starts processes
// without one.
func (c *Cgroups) New(l CgroupLimits) (*Cgroup, error) {
	if c == nil || c.version == 0 {
		return nil, nil
	}
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("sandbox cgroup name: %w", err)
	}
	g := &Cgroup{owner: c, version: c.version}
	for _, h := range c.hier {
		dir := filepath.Join(h.parent, cgroupGroupPrefix+hex.EncodeToString(b))
		if err := c.mkdirGroup(h, dir); err != nil {
			_ = g.Close()
			return nil, err
		}
		g.dirs = append(g.dirs, dir)
		if err := writeCgroupLimits(c.version, dir, h.controllers, l); err != nil {
			_ = g.Close()
			return nil, err
		}
		if slices.Contains(h.controllers, cgMemory) {
			g.memDir = dir
		}
	}
	c.mu.Lock()
	c.live[g] = struct{}{}
	c.mu.Unlock()
	c.reweigh()
	return g, nil
}

// reweigh gives each parent with the cpu controller the weight of as many
// ordinary processes as it holds sandboxes, so that, against other loads on
// the machine, this process's workers together get the share they would
// get without cgroups.
func (c *Cgroups) reweigh() {
	for _, h := range c.hier {
		if !slices.Contains(h.controllers, cgCPU) {
			continue
		}
		ents, err := os.ReadDir(h.parent)
		if err != nil {
			continue
		}
		n := 0
		for _, e := range ents {
			if e.IsDir() && strings.HasPrefix(e.Name(), cgroupGroupPrefix) {
				n++
			}
		}
		file, w := "cpu.weight", min(max(n, 1)*100, 10000)
		if c.version == 1 {
			file, w = "cpu.shares", min(max(n, 1)*1024, 262144)
		}
		if err := writeCgroupFile(filepath.Join(h.parent, file), strconv.Itoa(w)); err != nil {
			c.log.Debug("sandbox: set cgroup weight", "dir", h.parent, "error", err)
		}
	}
}

// mkdirGroup creates dir in h.parent, making the parent again if another
// Cgroups of this process removed it when it closed.
func (c *Cgroups) mkdirGroup(h cgHierarchy, dir string) error {
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, os.ErrNotExist) {
		if err = makeCgroupParent(c.version, h); err == nil {
			err = os.Mkdir(dir, 0o755)
		}
	}
	if err != nil {
		return fmt.Errorf("sandbox: create cgroup: %w (%s=off runs without cgroups)", err, cgroupsEnv)
	}
	return nil
}

// Close removes every cgroup made by c that is still there, killing what
// is left in them, and then the per-process parent unless another Cgroups
// of this process still uses it. A nil or inactive c does nothing.
func (c *Cgroups) Close() error {
	if c == nil || c.version == 0 {
		return nil
	}
	c.mu.Lock()
	groups := make([]*Cgroup, 0, len(c.live))
	for g := range c.live {
		groups = append(groups, g)
	}
	c.mu.Unlock()
	var errs []error
	for _, g := range groups {
		errs = append(errs, g.Close())
	}
	for _, h := range c.hier {
		// EBUSY: another pool of this process, or (v2) this process itself
		// in the supervisor leaf.
		if err := unix.Rmdir(h.parent); err != nil && err != unix.ENOENT && err != unix.EBUSY {
			errs = append(errs, fmt.Errorf("remove cgroup %s: %w", h.parent, err))
		}
	}
	return errors.Join(errs...)
}

// removeStale removes the parents, in h.base, of ticoder processes that are
// gone, and kills what is left in their sandboxes' groups.
func (c *Cgroups) removeStale(h cgHierarchy) {
	ents, err := os.ReadDir(h.base)
	if err != nil {
		return
	}
	for _, e := range ents {
		o, ok := parseCgroupOwner(e.Name())
		if !e.IsDir() || !ok || !o.goneFrom(c.self) {
			continue
		}
		dir := filepath.Join(h.base, e.Name())
		if err := removeStaleCgroup(dir, c.version); err != nil {
			c.log.Debug("sandbox: cannot remove stale cgroup", "dir", dir, "error", err)
		} else {
			c.log.Debug("sandbox: removed stale cgroup", "dir", dir)
		}
	}
}

// Cgroup is the cgroup of one sandbox (one directory per hierarchy with v1).
// A nil *Cgroup is valid: Start then just starts the command and Close does
// nothing. It is safe for concurrent use.
type Cgroup struct {
	owner   *Cgroups
	version int
	dirs    []string
	memDir  string
	once    sync.Once
	err     error
}

// Start starts cmd and moves its process into g (with v1, into each of g's
// hierarchies) right after. Nothing escapes the move: a sandbox's init
// only sets up its namespaces and executes Python, and the harness starts
// no process before its first request. If the move fails, the process is
// killed and waited for and Start returns an error. With a nil g, Start is
// cmd.Start.
func (g *Cgroup) Start(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil || g == nil {
		return err
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	for _, d := range g.dirs {
		if err := writeCgroupFile(filepath.Join(d, "cgroup.procs"), pid); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return fmt.Errorf("sandbox: move process %s into cgroup %s: %w (%s=off runs without cgroups)", pid, d, err, cgroupsEnv)
		}
	}
	return nil
}

// Paths returns g's directories, one per hierarchy.
func (g *Cgroup) Paths() []string {
	if g == nil {
		return nil
	}
	return slices.Clone(g.dirs)
}

// MemoryPeak returns the most memory g's processes have used at once, in
// bytes (memory.peak, memory.max_usage_in_bytes with v1).
func (g *Cgroup) MemoryPeak() (int64, error) {
	if g == nil || g.memDir == "" {
		return 0, errors.New("sandbox: no memory cgroup")
	}
	file := "memory.peak"
	if g.version == 1 {
		file = "memory.max_usage_in_bytes"
	}
	b, err := os.ReadFile(filepath.Join(g.memDir, file))
	if err != nil {
		return 0, fmt.Errorf("sandbox: read memory peak: %w", err)
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("sandbox: parse %s: %w", file, err)
	}
	return v, nil
}

// Close kills whatever is still in g and removes it. It waits up to about
// two seconds for killed processes to leave; calls after the first return
// the first's result.
func (g *Cgroup) Close() error {
	if g == nil {
		return nil
	}
	g.once.Do(func() {
		g.owner.mu.Lock()
		delete(g.owner.live, g)
		g.owner.mu.Unlock()
		var errs []error
		for _, d := range g.dirs {
			errs = append(errs, removeCgroup(d, g.version))
		}
		g.err = errors.Join(errs...)
		g.owner.reweigh()
	})
	return g.err
}

// writeCgroupLimits writes l into the control files of the controllers dir uses.
func writeCgroupLimits(version int, dir string, ctrls []string, l CgroupLimits) error {
	type setting struct {
		file, value string
		optional    bool // absent without swap accounting or on old kernels
	}
	var s []setting
	mem, pids := strconv.FormatInt(l.Memory, 10), strconv.FormatInt(l.Processes, 10)
	for _, ctrl := range ctrls {
		switch {
		case ctrl == cgMemory && l.Memory > 0 && version == 2:
			s = append(s, setting{"memory.max", mem, false}, setting{"memory.swap.max", "0", true})
		case ctrl == cgMemory && l.Memory > 0:
			// memsw (memory plus swap) may not be set below the memory limit.
			s = append(s, setting{"memory.limit_in_bytes", mem, false},
				setting{"memory.memsw.limit_in_bytes", mem, true}, setting{"memory.swappiness", "0", true})
		case ctrl == cgPids && l.Processes > 0:
			s = append(s, setting{"pids.max", pids, false})
		case ctrl == cgCPU && version == 2:
			s = append(s, setting{"cpu.weight", "100", false})
		case ctrl == cgCPU:
			s = append(s, setting{"cpu.shares", "1024", false})
		}
	}
	for _, st := range s {
		err := writeCgroupFile(filepath.Join(dir, st.file), st.value)
		if err != nil && !(st.optional && errors.Is(err, os.ErrNotExist)) {
			return fmt.Errorf("sandbox: set %s in %s: %w (%s=off runs without cgroups)", st.file, dir, err, cgroupsEnv)
		}
	}
	return nil
}
