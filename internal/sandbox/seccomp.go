package sandbox

import (
	"fmt"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter is a denylist behind an ABI gate.
//
// The gate comes first: a system call made through any ABI other than the
// native one (int 0x80 or sysenter on x86_64, i.e. the i386 ABI; the arm
// compat ABI on arm64) or through the x32 ABI (x86_64 numbers with bit 30
// set) kills the whole process. Syscall numbers differ between ABIs, so a
// denylist written in native numbers says nothing about them; Python never
// uses them, so nothing legitimate is lost.
//
// Behind the gate, the native system calls below fail with EPERM; everything
// else is allowed. An allowlist would be stronger, but CPython, glibc, numpy's
// BLAS and subprocesses use a wide and version-dependent set of system calls,
// and a missing entry would break candidates in ways that look like their own
// bugs. The denylist covers what container runtimes (Docker's default
// profile) refuse plus kernel interfaces that have been the entry point of
// recent privilege escalations.

// x32SyscallBit marks a system call made through the x32 ABI on x86_64.
const x32SyscallBit = 0x40000000

// seccompDataArch and seccompDataNr are offsets into struct seccomp_data.
const (
	seccompDataNr   = 0
	seccompDataArch = 4
)

// deniedSyscalls fail with EPERM inside the sandbox: nothing a test needs,
// everything an escape would. Names the native architecture does not have
// (iopl on arm64) are skipped.
var deniedSyscalls = []string{
	// Namespaces and the mount API: root inside the sandbox's user namespace
	// has no capability, but a nested user namespace would give it all.
	"unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
	"fsopen", "fsmount", "fsconfig", "fspick", "open_tree", "open_tree_attr",
	"move_mount", "mount_setattr", "listmount", "statmount",
	// Large kernel attack surfaces Python does not need.
	"bpf", "io_uring_setup", "io_uring_enter", "io_uring_register", "userfaultfd",
	"perf_event_open", "keyctl", "add_key", "request_key",
	"fanotify_init", "fanotify_mark", "name_to_handle_at", "open_by_handle_at",
	"lsm_get_self_attr", "lsm_set_self_attr", "lsm_list_modules",
	// Other processes' memory and files.
	"ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd", "kcmp",
	// Memory placement (Docker allows these only with CAP_SYS_NICE), and
	// CPU placement: ticoder chooses each worker's CPU (Config.CPUs); a
	// program that moved itself to another CPU would take part of the
	// share of the workers placed there.
	"mbind", "set_mempolicy", "set_mempolicy_home_node", "get_mempolicy", "migrate_pages", "move_pages",
	"sched_setaffinity",
	// System V IPC and POSIX message queues: their objects belong to the
	// sandbox's IPC namespace, not to the process that made them, so they
	// would outlive a program for the next one to read, and their memory
	// is neither bounded by a program's limits nor freed when it ends.
	// (POSIX shared memory and semaphores are files in /dev/shm, which is
	// the sandbox's /tmp: bounded, and emptied after every program.)
	"shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl",
	"msgget", "msgsnd", "msgrcv", "msgctl",
	"mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
	// The kernel and the machine.
	"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"create_module", "query_module", "get_kernel_syms", "reboot", "swapon", "swapoff", "syslog",
	"acct", "quotactl", "quotactl_fd", "lookup_dcookie", "nfsservctl", "_sysctl", "sysfs",
	"ustat", "uselib", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"sethostname", "setdomainname", "vhangup", "personality", "iopl", "ioperm", "modify_ldt",
}

// namespaceFlags may not be passed to clone: no nested namespaces.
const namespaceFlags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// allowedSocketFamilies are the only address families socket(2) accepts:
// others reach kernel code that network namespaces do not isolate (AF_VSOCK
// talks to the hypervisor) or that is rarely used and loaded on demand.
// AF_NETLINK stays: glibc's getaddrinfo asks the kernel for interfaces.
var allowedSocketFamilies = []uint64{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_NETLINK}

// selfOnly are system calls that may change another process's scheduling or
// limits (the program of one sample could slow down or starve the
// sandbox's worker and the processes of every later sample): they keep
// working on the calling process itself, where the pid (who) argument is 0,
// and fail with EPERM for any other. Each entry is one condition under which
// the call is refused.
var selfOnly = []seccomp.NameWithConditions{
	// setpriority(which, who, prio): only PRIO_PROCESS of the caller itself
	// (PRIO_USER with who 0 would reach every process of the sandbox).
	{Name: "setpriority", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: unix.PRIO_PROCESS}}},
	{Name: "setpriority", Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.NotEqual, Value: 0}}},
	// ioprio_set(which, who, ioprio): likewise, IOPRIO_WHO_PROCESS (1) only.
	{Name: "ioprio_set", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: 1}}},
	{Name: "ioprio_set", Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.NotEqual, Value: 0}}},
	{Name: "prlimit64", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: 0}}},
	{Name: "sched_setscheduler", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: 0}}},
	{Name: "sched_setparam", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: 0}}},
	{Name: "sched_setattr", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: 0}}},
}

// sandboxPolicy is the denylist for the given architecture. clone3 returns
// ENOSYS, not EPERM: glibc then falls back to clone, whose flags the filter
// can inspect (clone3 passes them in memory), and Python threads keep
// working.
func sandboxPolicy(info *arch.Info) seccomp.Policy {
	var denied []string
	for _, name := range deniedSyscalls {
		if _, ok := info.SyscallNames[name]; ok {
			denied = append(denied, name)
		}
	}
	var familyNot seccomp.ArgumentConditions
	for _, f := range allowedSocketFamilies {
		familyNot = append(familyNot, seccomp.Condition{Argument: 0, Operation: seccomp.NotEqual, Value: f})
	}
	errno := func(e unix.Errno) seccomp.Action { return seccomp.ActionErrno | seccomp.Action(e) }
	return seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{Action: errno(unix.EPERM), Names: denied},
			{Action: errno(unix.ENOSYS), Names: []string{"clone3"}},
			{
				Action: errno(unix.EPERM),
				NamesWithCondtions: []seccomp.NameWithConditions{{
					Name:       "clone",
					Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: namespaceFlags}},
				}},
			},
			{Action: errno(unix.EPERM), NamesWithCondtions: selfOnly},
			{
				Action:             errno(unix.EAFNOSUPPORT),
				NamesWithCondtions: []seccomp.NameWithConditions{{Name: "socket", Conditions: familyNot}},
			},
		},
	}
}

// abiGate kills the process on a system call from a foreign ABI and leaves
// seccomp_data.nr in the accumulator for the program that follows.
func abiGate(info *arch.Info) []bpf.Instruction {
	kill := bpf.RetConstant{Val: unix.SECCOMP_RET_KILL_PROCESS}
	gate := []bpf.Instruction{
		bpf.LoadAbsolute{Off: seccompDataArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(info.ID), SkipTrue: 1},
		kill,
		bpf.LoadAbsolute{Off: seccompDataNr, Size: 4},
	}
	if info.ID == arch.X86_64.ID {
		gate = append(gate,
			bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: x32SyscallBit, SkipFalse: 1},
			kill)
	}
	return gate
}

// seccompProgram assembles the sandbox's filter for the given architecture:
// the ABI gate, then the denylist. (go-seccomp-bpf's own program lets foreign
// ABIs through to its default action, Allow, and only refuses x32 with ENOSYS;
// the gate in front makes that path unreachable.)
func seccompProgram(info *arch.Info) ([]bpf.Instruction, error) {
	policy := sandboxPolicy(info)
	body, err := policy.Assemble()
	if err != nil {
		return nil, fmt.Errorf("assemble policy: %w", err)
	}
	return append(abiGate(info), body...), nil
}

// loadSeccomp installs the filter on the calling thread, which must already
// have no_new_privs set; execve passes it on to Python and its children.
func loadSeccomp() error {
	info, err := arch.GetInfo("")
	if err != nil {
		return fmt.Errorf("native architecture: %w", err)
	}
	if len(info.SyscallNames) == 0 {
		return fmt.Errorf("no system call table for %s: the filter cannot be built", info.Name)
	}
	prog, err := seccompProgram(info)
	if err != nil {
		return err
	}
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return fmt.Errorf("assemble BPF: %w", err)
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, ins := range raw {
		filter[i] = unix.SockFilter{Code: ins.Op, Jt: ins.Jt, Jf: ins.Jf, K: ins.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("install filter: %w", err)
	}
	return nil
}
