package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// sandboxID is the host uid and gid that root inside the sandbox maps to when
// ticoder runs as root: an id no host file belongs to, so host files are
// "nobody's" inside and no rlimit is shared with real users.
const sandboxID = 1_600_000

// Main turns this process into a sandbox init when it was started as one, and
// returns immediately otherwise. It must be the first call in main (and in
// TestMain of packages whose tests start sandboxes).
func Main() {
	if len(os.Args) == 0 || os.Args[0] != initArg0 {
		return
	}
	if err := runInit(); err != nil {
		fmt.Fprintf(os.Stderr, "ticoder sandbox: %v\n", err)
		os.Exit(127)
	}
	os.Exit(127) // not reached: runInit execs Python
}

func namespaceAttrs() *syscall.SysProcAttr {
	hostUID, hostGID := os.Getuid(), os.Getgid()
	if hostUID == 0 {
		hostUID, hostGID = sandboxID, sandboxID
	}
	return &syscall.SysProcAttr{
		Cloneflags: unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID |
			unix.CLONE_NEWNET | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: hostUID, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: hostGID, Size: 1}},
		Credential:  &syscall.Credential{Uid: 0, Gid: 0},
		Pdeathsig:   syscall.SIGKILL,
	}
}

// runInit runs inside the new namespaces as their PID 1. It builds the
// sandbox's file system, locks the process down and replaces itself with
// Python, which inherits every restriction.
func runInit() error {
	// Landlock, seccomp, capabilities and no_new_privs are per thread and
	// survive execve only on the thread that calls it.
	runtime.LockOSThread()
	var cfg Config
	if err := json.Unmarshal([]byte(os.Getenv(configEnv)), &cfg); err != nil {
		return fmt.Errorf("decode config: %w", err)
	}
	cfg = cfg.withDefaults()
	if err := pinCPUs(cfg.CPUs); err != nil {
		return err
	}
	readable, err := buildRoot(cfg)
	if err != nil {
		return fmt.Errorf("build file system: %w", err)
	}
	if err := unix.Sethostname([]byte(hostname)); err != nil {
		return fmt.Errorf("set hostname: %w", err)
	}
	if err := loopbackUp(); err != nil {
		return fmt.Errorf("network: %w", err)
	}
	nofile := unix.Rlimit{Cur: cfg.OpenFiles, Max: cfg.OpenFiles}
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &nofile); err != nil {
		return fmt.Errorf("limit open files: %w", err)
	}
	if err := cfg.JVM.setRlimits(); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := restrictLandlock(readable); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if err := dropCapabilities(); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	if err := loadSeccomp(); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	argv := append([]string{cfg.Python}, cfg.Args...)
	env := scrubbedEnv
	if cfg.JVM.Enabled {
		env = cfg.JVM.env(cfg.Python)
	}
	if err := unix.Exec(cfg.Python, argv, env); err != nil {
		return fmt.Errorf("exec %s: %w", cfg.Python, err)
	}
	return nil
}

// pinCPUs keeps this thread, and so Python and everything it starts, on
// cpus (all of them when empty). A CPU that went offline since the pool
// chose it leaves the thread where it was: placement is for speed only.
func pinCPUs(cpus []int) error {
	if len(cpus) == 0 {
		return nil
	}
	var set unix.CPUSet
	for _, c := range cpus {
		if c < 0 || c >= len(set)*64 {
			return fmt.Errorf("pin to CPU %d: no such CPU", c)
		}
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("pin to CPUs %v: %w", cpus, err)
	}
	return nil
}

// loopbackUp brings up lo, the only interface of the sandbox's network
// namespace, so that processes inside can talk to each other over UDP and
// unix sockets (Landlock refuses TCP).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("lo: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("read lo's flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bring up lo: %w", err)
	}
	return nil
}

// dropCapabilities empties the bounding, ambient, inheritable, permitted and
// effective sets, so that root inside the sandbox has no capability even in
// its own user namespace, and execve cannot give any back. Capabilities the
// kernel does not know are skipped (/proc/sys, where cap_last_cap is, is
// masked by now).
func dropCapabilities() error {
	for c := 0; c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("drop capability %d from bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}
