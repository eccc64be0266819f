package sandbox

// The cgroup file system: finding the hierarchies, setting up the
// per-process parent, removing groups.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupMount is one mounted cgroup hierarchy.
type cgroupMount struct {
	point, root string
	v2          bool
	controllers []string // v1: from the super options
}

// dir returns the directory of cgroup path rel (as /proc/self/cgroup names
// it) below the mount.
func (m cgroupMount) dir(rel string) (string, error) {
	if m.root != "/" {
		if rel != m.root && !strings.HasPrefix(rel, m.root+"/") {
			return "", fmt.Errorf("cgroup %s is outside the mounted %s", rel, m.root)
		}
		rel = strings.TrimPrefix(rel, m.root)
	}
	return filepath.Join(m.point, rel), nil
}

// readCgroupMounts lists the cgroup mounts of this mount namespace.
func readCgroupMounts() ([]cgroupMount, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("read mountinfo: %w", err)
	}
	defer f.Close()
	return parseCgroupMounts(f)
}

// parseCgroupMounts picks the cgroup mounts out of a mountinfo file.
func parseCgroupMounts(r io.Reader) ([]cgroupMount, error) {
	unescape := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	var out []cgroupMount
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, tail := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(tail) < 3 {
			continue
		}
		m := cgroupMount{root: unescape.Replace(fields[3]), point: unescape.Replace(fields[4])}
		switch tail[0] {
		case "cgroup2":
			m.v2 = true
		case "cgroup":
			m.controllers = strings.Split(tail[2], ",")
		default:
			continue
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mountinfo: %w", err)
	}
	return out, nil
}

// readOwnCgroups maps each controller to this process's cgroup path in its
// hierarchy; "" is the v2 hierarchy.
func readOwnCgroups() (map[string]string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, fmt.Errorf("read own cgroups: %w", err)
	}
	return parseOwnCgroups(string(b)), nil
}

// parseOwnCgroups parses a /proc/PID/cgroup file.
func parseOwnCgroups(s string) map[string]string {
	own := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			own[""] = parts[2]
			continue
		}
		for _, ctrl := range strings.Split(parts[1], ",") {
			own[ctrl] = parts[2]
		}
	}
	return own
}

// setupCgroupV1 makes the per-process parent in the hierarchy of each wanted
// controller where it can, and says why it could not elsewhere.
func setupCgroupV1(mounts []cgroupMount, own map[string]string, name string, wanted []string) ([]cgHierarchy, error) {
	var out []cgHierarchy
	var errs []error
	for _, ctrl := range wanted {
		i := slices.IndexFunc(mounts, func(m cgroupMount) bool { return !m.v2 && slices.Contains(m.controllers, ctrl) })
		if i < 0 {
			errs = append(errs, fmt.Errorf("%s: not mounted", ctrl))
			continue
		}
		base, err := mounts[i].dir(own[ctrl])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ctrl, err))
			continue
		}
		// Co-mounted controllers (cpu,cpuacct; sometimes more) share a tree.
		if j := slices.IndexFunc(out, func(h cgHierarchy) bool { return h.base == base }); j >= 0 {
			out[j].controllers = append(out[j].controllers, ctrl)
			continue
		}
		h := cgHierarchy{base: base, parent: filepath.Join(base, name), controllers: []string{ctrl}}
		if err := makeCgroupParent(1, h); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ctrl, err))
			continue
		}
		out = append(out, h)
	}
	return out, cgJoinErrors(errs)
}

// cgJoinErrors joins errs on one line.
func cgJoinErrors(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return errors.New(strings.Join(msgs, "; "))
}

// setupCgroupV2 readies this process's own v2 cgroup: required controllers must be
// delegated to it, and the wanted ones it has are enabled for the parent's
// children. A cgroup that holds processes cannot hand controllers down, so
// if this process is alone in it, it moves into PARENT/supervisor first.
func setupCgroupV2(mounts []cgroupMount, own map[string]string, name string, wanted, required []string) (cgHierarchy, error) {
	i := slices.IndexFunc(mounts, func(m cgroupMount) bool { return m.v2 })
	rel, ok := own[""]
	if i < 0 || !ok {
		return cgHierarchy{}, errors.New("not mounted")
	}
	base, err := mounts[i].dir(rel)
	if err != nil {
		return cgHierarchy{}, err
	}
	// An earlier Cgroups of this process may have moved it already.
	if filepath.Base(base) == cgroupSupervisorLeaf && filepath.Base(filepath.Dir(base)) == name {
		base = filepath.Dir(filepath.Dir(base))
	}
	avail, err := readCgroupWords(filepath.Join(base, "cgroup.controllers"))
	if err != nil {
		return cgHierarchy{}, err
	}
	h := cgHierarchy{base: base, parent: filepath.Join(base, name)}
	for _, ctrl := range wanted {
		if slices.Contains(avail, ctrl) {
			h.controllers = append(h.controllers, ctrl)
		}
	}
	for _, ctrl := range required {
		if !slices.Contains(avail, ctrl) {
			return cgHierarchy{}, fmt.Errorf("controller %s not delegated to %s (it has %q)", ctrl, base, avail)
		}
	}
	err = enableCgroupControllers(base, h.controllers)
	if errors.Is(err, unix.EBUSY) {
		if err = moveSelfToLeaf(base, h.parent); err == nil {
			err = enableCgroupControllers(base, h.controllers)
		}
	}
	if err != nil {
		return cgHierarchy{}, err
	}
	return h, makeCgroupParent(2, h)
}

// moveSelfToLeaf moves this process, if it is alone in base, into the leaf
// parent/supervisor.
func moveSelfToLeaf(base, parent string) error {
	procs, err := readCgroupWords(filepath.Join(base, "cgroup.procs"))
	if err != nil {
		return err
	}
	self := strconv.Itoa(os.Getpid())
	if len(procs) != 1 || procs[0] != self {
		return fmt.Errorf("%s holds %d processes besides ticoder: start ticoder in a delegated cgroup of its own "+
			"(systemd-run --user --scope -p Delegate=yes ticoder …)", base, len(procs)-1)
	}
	leaf := filepath.Join(parent, cgroupSupervisorLeaf)
	for _, d := range []string{parent, leaf} {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create cgroup %s: %w", d, err)
		}
	}
	if err := writeCgroupFile(filepath.Join(leaf, "cgroup.procs"), self); err != nil {
		return fmt.Errorf("move ticoder into %s: %w", leaf, err)
	}
	return nil
}

// makeCgroupParent creates h.parent (which may exist) and, with v2, enables its
// controllers for its children.
func makeCgroupParent(version int, h cgHierarchy) error {
	if err := os.Mkdir(h.parent, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("create cgroup: %w", err)
	}
	if version == 2 {
		return enableCgroupControllers(h.parent, h.controllers)
	}
	return nil
}

// enableCgroupControllers adds ctrls to dir's cgroup.subtree_control.
func enableCgroupControllers(dir string, ctrls []string) error {
	file := filepath.Join(dir, "cgroup.subtree_control")
	have, err := readCgroupWords(file)
	if err != nil {
		return err
	}
	var add []string
	for _, c := range ctrls {
		if !slices.Contains(have, c) {
			add = append(add, "+"+c)
		}
	}
	if len(add) == 0 {
		return nil
	}
	if err := writeCgroupFile(file, strings.Join(add, " ")); err != nil {
		return fmt.Errorf("enable %s in %s: %w", strings.Join(add, " "), dir, err)
	}
	return nil
}

// writeCgroupFile writes value to the existing control file: a cgroup
// file system creates its files itself, and a missing one means a controller
// or feature is absent.
func writeCgroupFile(file, value string) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func readCgroupWords(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return strings.Fields(string(b)), nil
}

// cgOwner identifies the process a per-process parent belongs to: its
// pid, its start time (the pid may be reused) and its pid namespace (the
// same pid may name another process there). Its cgroup's name is
// ticoder-PID-START-PIDNS.
type cgOwner struct {
	pid          int
	start, pidns uint64
}

// selfCgroupOwner returns this process's cgOwner.
func selfCgroupOwner() (cgOwner, error) {
	pid := os.Getpid()
	start, err := procStartTime(pid)
	if err != nil {
		return cgOwner{}, err
	}
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/pid", &st); err != nil {
		return cgOwner{}, fmt.Errorf("stat own pid namespace: %w", err)
	}
	return cgOwner{pid: pid, start: start, pidns: st.Ino}, nil
}

func (o cgOwner) name() string { return fmt.Sprintf("ticoder-%d-%d-%d", o.pid, o.start, o.pidns) }

func parseCgroupOwner(name string) (cgOwner, bool) {
	rest, ok := strings.CutPrefix(name, "ticoder-")
	f := strings.Split(rest, "-")
	if !ok || len(f) != 3 {
		return cgOwner{}, false
	}
	pid, err1 := strconv.Atoi(f[0])
	start, err2 := strconv.ParseUint(f[1], 10, 64)
	ns, err3 := strconv.ParseUint(f[2], 10, 64)
	return cgOwner{pid: pid, start: start, pidns: ns}, err1 == nil && err2 == nil && err3 == nil
}

// goneFrom reports whether o's process is known to have exited: it was in
// the pid namespace of self and no longer runs there.
func (o cgOwner) goneFrom(self cgOwner) bool {
	if o.pidns != self.pidns || o == self {
		return false
	}
	s, err := procStartTime(o.pid)
	return err != nil || s != o.start
}

// procStartTime returns when process pid started, in clock ticks after boot:
// with the pid it names a process uniquely.
func procStartTime(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read process start time: %w", err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 {
		return 0, fmt.Errorf("parse /proc/%d/stat: %d fields", pid, len(f))
	}
	return strconv.ParseUint(f[19], 10, 64)
}

// removeStaleCgroup removes a stale parent: its sandboxes' groups (killing what is
// left in them), its supervisor leaf and itself.
func removeStaleCgroup(dir string, version int) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	var errs []error
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		child := filepath.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), cgroupGroupPrefix) {
			errs = append(errs, removeCgroup(child, version))
		} else if err := unix.Rmdir(child); err != nil {
			// The supervisor leaf: busy only if a process the dead ticoder
			// started (not a sandbox) still runs. It is left alone.
			errs = append(errs, fmt.Errorf("remove cgroup %s: %w", child, err))
		}
	}
	if err := unix.Rmdir(dir); err != nil {
		errs = append(errs, fmt.Errorf("remove cgroup %s: %w", dir, err))
	}
	return errors.Join(errs...)
}

// removeCgroup kills every process in the sandbox group dir and removes it.
func removeCgroup(dir string, version int) error {
	if version == 2 {
		// cgroup.kill (Linux 5.14) kills the whole group at once.
		if err := writeCgroupFile(filepath.Join(dir, "cgroup.kill"), "1"); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("kill cgroup %s: %w", dir, err)
		}
	}
	for range 100 {
		if n, err := killCgroupMembers(dir); err != nil || n == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return rmdirCgroup(dir)
}

// killCgroupMembers sends SIGKILL to every process in dir and returns how many it
// found. A pidfd pins each process, so a pid reused after its process left
// the group is never signalled.
func killCgroupMembers(dir string) (int, error) {
	pids, err := readCgroupWords(filepath.Join(dir, "cgroup.procs"))
	if err != nil || len(pids) == 0 {
		return 0, err
	}
	for _, p := range pids {
		pid, err := strconv.Atoi(p)
		if err != nil {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		if now, err := readCgroupWords(filepath.Join(dir, "cgroup.procs")); err == nil && slices.Contains(now, p) {
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		unix.Close(fd)
	}
	return len(pids), nil
}

// rmdirCgroup removes the cgroup dir, retrying for up to about two seconds
// while processes that were killed are still leaving it.
func rmdirCgroup(dir string) error {
	var err error
	for i := range 25 {
		err = unix.Rmdir(dir)
		if err == nil || err == unix.ENOENT {
			return nil
		}
		if err != unix.EBUSY {
			break
		}
		time.Sleep(time.Duration(min(i+1, 10)) * 10 * time.Millisecond)
	}
	return fmt.Errorf("remove cgroup %s: %w", dir, err)
}
