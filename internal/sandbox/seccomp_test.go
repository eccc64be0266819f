package sandbox

import (
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData encodes struct seccomp_data for golang.org/x/net/bpf's VM,
// which loads words big-endian: each 32-bit word is stored big-endian at the
// offset a little-endian kernel would read it from, so the VM sees the values
// the kernel's filter sees.
func seccompData(nr, auditArch uint32, args ...uint64) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[0:], nr)
	binary.BigEndian.PutUint32(b[4:], auditArch)
	for i, a := range args {
		binary.BigEndian.PutUint32(b[16+8*i:], uint32(a))
		binary.BigEndian.PutUint32(b[16+8*i+4:], uint32(a>>32))
	}
	return b
}

// critical are the system calls an escape from the sandbox has used or would
// use first; each must be in the denylist on every architecture that has it.
var critical = []string{
	"unshare", "setns", "mount", "fsopen", "fsmount", "fsconfig", "fspick", "open_tree", "move_mount",
	"mount_setattr", "io_uring_setup", "io_uring_enter", "io_uring_register", "bpf", "userfaultfd",
	"keyctl", "add_key", "request_key", "perf_event_open", "ptrace", "process_vm_readv",
	"process_vm_writev", "process_madvise", "pidfd_getfd", "kcmp", "kexec_load", "kexec_file_load",
	"init_module", "finit_module", "delete_module", "quotactl", "quotactl_fd", "lookup_dcookie",
	"fanotify_init", "name_to_handle_at", "open_by_handle_at",
	"shmget", "semget", "msgget", "mq_open",
}

func TestDeniedSyscallNames(t *testing.T) {
	known := func(name string) bool {
		_, x86 := arch.X86_64.SyscallNames[name]
		_, arm := arch.AARCH64.SyscallNames[name]
		return x86 || arm
	}
	listed := map[string]bool{}
	for _, name := range deniedSyscalls {
		if !known(name) {
			t.Errorf("%s is not a system call on x86_64 or aarch64", name)
		}
		if listed[name] {
			t.Errorf("%s is listed twice", name)
		}
		listed[name] = true
	}
	for _, name := range critical {
		if !listed[name] {
			t.Errorf("%s is missing from deniedSyscalls", name)
		}
	}
}

func TestSeccompProgram(t *testing.T) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("seccompData assumes a little-endian kernel")
	}
	info, err := arch.GetInfo("")
	if err != nil || len(info.SyscallNames) == 0 {
		t.Skipf("no syscall table for %s", runtime.GOARCH)
	}
	prog, err := seccompProgram(info)
	if err != nil {
		t.Fatal(err)
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	const (
		allow = unix.SECCOMP_RET_ALLOW
		kill  = unix.SECCOMP_RET_KILL_PROCESS
		eperm = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	)
	nr := func(name string) uint32 {
		n, ok := info.SyscallNames[name]
		if !ok {
			t.Fatalf("no %s on %s", name, info.Name)
		}
		return uint32(n)
	}
	foreign := uint32(arch.I386.ID)
	if info.ID != arch.X86_64.ID {
		foreign = uint32(arch.ARM.ID)
	}
	type tc struct {
		name string
		data []byte
		want uint32
	}
	cases := []tc{
		{"getpid", seccompData(nr("getpid"), uint32(info.ID)), allow},
		{"foreign ABI getpid", seccompData(20, foreign), kill},
		{"foreign ABI unshare", seccompData(310, foreign, unix.CLONE_NEWUSER), kill},
		{"thread clone", seccompData(nr("clone"), uint32(info.ID), unix.CLONE_VM|unix.CLONE_THREAD|unix.CLONE_SIGHAND), allow},
		{"clone new user ns", seccompData(nr("clone"), uint32(info.ID), unix.CLONE_NEWUSER|uint64(unix.SIGCHLD)), eperm},
		{"clone new net ns", seccompData(nr("clone"), uint32(info.ID), unix.CLONE_NEWNET), eperm},
		{"clone3", seccompData(nr("clone3"), uint32(info.ID)), unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
		{"socket inet", seccompData(nr("socket"), uint32(info.ID), unix.AF_INET), allow},
		{"socket unix", seccompData(nr("socket"), uint32(info.ID), unix.AF_UNIX), allow},
		{"socket vsock", seccompData(nr("socket"), uint32(info.ID), unix.AF_VSOCK), unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT)},
		{"setpriority self", seccompData(nr("setpriority"), uint32(info.ID), unix.PRIO_PROCESS, 0, 19), allow},
		{"setpriority other", seccompData(nr("setpriority"), uint32(info.ID), unix.PRIO_PROCESS, 1, 19), eperm},
		{"setpriority user", seccompData(nr("setpriority"), uint32(info.ID), unix.PRIO_USER, 0, 19), eperm},
		{"setpriority group", seccompData(nr("setpriority"), uint32(info.ID), unix.PRIO_PGRP, 0, 19), eperm},
		{"prlimit self", seccompData(nr("prlimit64"), uint32(info.ID), 0, unix.RLIMIT_AS), allow},
		{"prlimit other", seccompData(nr("prlimit64"), uint32(info.ID), 7, unix.RLIMIT_AS), eperm},
		{"prlimit other high bits", seccompData(nr("prlimit64"), uint32(info.ID), 1<<32, unix.RLIMIT_AS), eperm},
		{"sched_setaffinity self", seccompData(nr("sched_setaffinity"), uint32(info.ID), 0), eperm},
		{"sched_setaffinity other", seccompData(nr("sched_setaffinity"), uint32(info.ID), 1), eperm},
		{"sched_setscheduler other", seccompData(nr("sched_setscheduler"), uint32(info.ID), 1), eperm},
		{"sched_setparam other", seccompData(nr("sched_setparam"), uint32(info.ID), 1), eperm},
		{"sched_setattr other", seccompData(nr("sched_setattr"), uint32(info.ID), 1), eperm},
		{"ioprio_set self", seccompData(nr("ioprio_set"), uint32(info.ID), 1, 0), allow},
		{"ioprio_set other", seccompData(nr("ioprio_set"), uint32(info.ID), 1, 5), eperm},
		{"ioprio_set user", seccompData(nr("ioprio_set"), uint32(info.ID), 3, 0), eperm},
		{"socket inet high bits", seccompData(nr("socket"), uint32(info.ID), 1<<32|unix.AF_INET), unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT)},
	}
	if info.ID == arch.X86_64.ID {
		cases = append(cases,
			tc{"x32 getpid", seccompData(x32SyscallBit|nr("getpid"), uint32(info.ID)), kill},
			tc{"x32 unshare", seccompData(x32SyscallBit|nr("unshare"), uint32(info.ID)), kill},
			tc{"nr -1", seccompData(0xffffffff, uint32(info.ID)), kill})
	}
	for _, name := range deniedSyscalls {
		if n, ok := info.SyscallNames[name]; ok {
			cases = append(cases, tc{name, seccompData(uint32(n), uint32(info.ID)), eperm})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := vm.Run(c.data)
			if err != nil {
				t.Fatal(err)
			}
			if uint32(got) != c.want {
				t.Errorf("action %#x, want %#x", uint32(got), c.want)
			}
		})
	}
}
