package sandbox

import (
	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

// deniedSyscalls fail with EPERM inside the sandbox: nothing a test needs,
// everything an escape would.
var deniedSyscalls = []string{
	"mount", "umount2", "pivot_root", "chroot", "ptrace", "process_vm_readv", "process_vm_writev",
	"unshare", "setns", "bpf", "keyctl", "add_key", "request_key", "kexec_load", "kexec_file_load",
	"init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff", "syslog",
	"perf_event_open", "userfaultfd", "open_by_handle_at", "name_to_handle_at", "acct",
	"settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm", "quotactl",
	"fanotify_init", "lookup_dcookie", "mount_setattr", "move_mount", "open_tree", "fsopen",
	"fsmount", "fsconfig", "fspick", "io_uring_setup", "io_uring_enter", "io_uring_register",
	"sethostname", "setdomainname", "vhangup", "personality",
}

// namespaceFlags may not be passed to clone: no nested namespaces.
const namespaceFlags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// sandboxPolicy allows every system call except the denied ones. clone3
// returns ENOSYS, not EPERM: glibc then falls back to clone, whose flags the
// filter can inspect (clone3 passes them in memory), and Python threads keep
// working.
func sandboxPolicy() seccomp.Policy {
	return seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{Action: seccomp.ActionErrno | seccomp.Action(unix.EPERM), Names: deniedSyscalls},
			{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
			{
				Action: seccomp.ActionErrno | seccomp.Action(unix.EPERM),
				NamesWithCondtions: []seccomp.NameWithConditions{{
					Name:       "clone",
					Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: namespaceFlags}},
				}},
			},
		},
	}
}

func loadSeccomp() error {
	return seccomp.LoadFilter(seccomp.Filter{NoNewPrivs: true, Policy: sandboxPolicy()})
}
