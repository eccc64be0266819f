package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// The sandbox's /proc is its own pid namespace's procfs, so /proc/<pid>,
// /proc/self and /proc/net show only the sandbox. The rest of /proc describes
// the host; as container runtimes do (runc's default masked and read-only
// paths), the sandbox sees an empty file or directory instead of what
// identifies the machine (boot_id, the kernel's command line and
// configuration), exposes kernel internals (kallsyms, kcore, timer_list,
// keys) or lets one tenant watch the others (pressure, interrupts, locks).
// /proc/sys goes whole, with the sysctls a candidate could otherwise read.

// procMaskedFiles are /proc files replaced by /dev/null.
var procMaskedFiles = []string{
	"kcore", "kallsyms", "kmsg", "kpagecgroup", "kpagecount", "kpageflags", "keys", "key-users",
	"timer_list", "timer_stats", "sched_debug", "schedstat", "latency_stats", "sysrq-trigger",
	"config.gz", "cmdline", "bootconfig", "modules", "interrupts", "softirqs", "locks",
	"vmallocinfo", "iomem", "ioports", "slabinfo", "pagetypeinfo", "mtrr", "dma", "devices",
	"misc", "consoles", "partitions", "diskstats", "swaps",
}

// procMaskedDirs are /proc directories replaced by an empty read-only tmpfs.
var procMaskedDirs = []string{
	"sys", "acpi", "asound", "bus", "driver", "dynamic_debug", "fs", "irq", "pressure", "scsi", "tty",
}

// namespaceLimits are the per-user-namespace sysctls set to 0 in the
// sandbox's user namespace: even a system call the seccomp filter misses
// cannot create a nested namespace (bubblewrap's --disable-userns does the
// same for user namespaces). They must be written while /proc/sys is visible
// and the init still holds CAP_SYS_RESOURCE in its namespace.
var namespaceLimits = []string{
	"max_user_namespaces", "max_mnt_namespaces", "max_net_namespaces", "max_pid_namespaces",
	"max_ipc_namespaces", "max_uts_namespaces", "max_cgroup_namespaces", "max_time_namespaces",
}

// mountProc mounts the sandbox's procfs on newRoot/proc, forbids nested
// namespaces and masks the host-wide entries.
func mountProc() error {
	proc := newRoot + "/proc"
	if err := os.Mkdir(proc, 0o555); err != nil {
		return fmt.Errorf("mkdir /proc: %w", err)
	}
	if err := unix.Mount("proc", proc, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	for _, name := range namespaceLimits {
		err := os.WriteFile(filepath.Join(proc, "sys/user", name), []byte("0\n"), 0)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("forbid nested namespaces: %w", err)
		}
	}
	for _, name := range procMaskedFiles {
		p := filepath.Join(proc, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if err := unix.Mount("/dev/null", p, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("mask /proc/%s: %w", name, err)
		}
	}
	for _, name := range procMaskedDirs {
		p := filepath.Join(proc, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		flags := uintptr(unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC)
		if err := unix.Mount("tmpfs", p, "tmpfs", flags, "size=4k,mode=0555"); err != nil {
			return fmt.Errorf("mask /proc/%s: %w", name, err)
		}
	}
	return nil
}
