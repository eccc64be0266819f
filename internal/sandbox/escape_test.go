package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// escapePrelude gives Python functions that make system calls the way an
// attacker would: through hand-assembled x86_64 machine code in an executable
// mapping (the i386 ABI via int 0x80, the x32 ABI, the native ABI) and through
// libc's syscall(). probe runs one call in a forked child and prints how it
// ended: "signal SIGSYS", "ok", or the errno's name.
const escapePrelude = `
import ctypes, errno, mmap, os, signal, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
_keep = []

def code(b, nargs):
    m = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    m.write(b)
    _keep.append(m)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
    return ctypes.CFUNCTYPE(ctypes.c_long, *[ctypes.c_long] * nargs)(addr)

def u32(v):
    return struct.pack("<I", v & 0xffffffff)

def i386(nr, a=0, b=0, c=0):
    # push rbx; mov ebx, a; mov ecx, b; mov edx, c; mov eax, nr; int 0x80; pop rbx; ret
    f = code(b"\x53\xbb" + u32(a) + b"\xb9" + u32(b) + b"\xba" + u32(c) + b"\xb8" + u32(nr) + b"\xcd\x80\x5b\xc3", 0)
    return ctypes.c_int(f()).value

def x32(nr, a=0, b=0, c=0):
    # mov eax, 0x40000000|nr; syscall; ret (arguments are already in rdi, rsi, rdx)
    return code(b"\xb8" + u32(0x40000000 | nr) + b"\x0f\x05\xc3", 3)(a, b, c)

def native(nr, a=0, b=0, c=0):
    # mov eax, nr; syscall; ret
    return code(b"\xb8" + u32(nr) + b"\x0f\x05\xc3", 3)(a, b, c)

def sc(nr, *args):
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    return -ctypes.get_errno() if r == -1 else r

def buf(n):
    b = ctypes.create_string_buffer(n)
    _keep.append(b)
    return ctypes.addressof(b)

def probe(name, call):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            res = call()
            out = "ok" if res >= 0 else errno.errorcode.get(-res, str(res))
        except BaseException as e:
            out = "exception %r" % e
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    out = os.read(r, 200).decode()
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        out = "signal " + signal.Signals(os.WTERMSIG(status)).name
    print("%s: %s" % (name, out), flush=True)

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000

def clone_newuser():
    r = sc(56, CLONE_NEWUSER | signal.SIGCHLD, 0, 0, 0, 0)
    if r == 0:
        os._exit(0)
    return r

def perf_event_open():
    attr = buf(128)
    struct.pack_into("<IIQ", (ctypes.c_char * 128).from_address(attr), 0, 1, 128, 1)  # software, task clock
    flags = (ctypes.c_uint64).from_address(attr + 40)
    flags.value = 1 << 5 | 1 << 6  # exclude_kernel, exclude_hv
    return sc(298, attr, 0, -1, -1, 0)

def page():
    m = mmap.mmap(-1, mmap.PAGESIZE)
    m.write(b"x")
    _keep.append(m)
    return ctypes.addressof(ctypes.c_char.from_buffer(m))

def iovec(addr, n):
    v = buf(16)
    struct.pack_into("<QQ", (ctypes.c_char * 16).from_address(v), 0, addr, n)
    return v

def process_vm_readv():
    src, dst = buf(8), buf(8)
    return sc(310, os.getpid(), iovec(dst, 8), 1, iovec(src, 8), 1, 0)

def name_to_handle_at():
    h = buf(136)
    ctypes.c_uint.from_address(h).value = 128
    return sc(303, -100, buf(1), h, buf(4), 0x1000)  # AT_FDCWD, "" with AT_EMPTY_PATH
`

// escapeCase is one system call from Python and how it must end.
type escapeCase struct {
	name, call, want string
}

// runEscapeCases runs every case in one sandbox and checks each outcome.
func runEscapeCases(t *testing.T, cases []escapeCase) {
	t.Helper()
	var src strings.Builder
	src.WriteString(escapePrelude)
	for _, c := range cases {
		fmt.Fprintf(&src, "probe(%q, lambda: %s)\n", c.name, c.call)
	}
	out, stderr, err := runPython(t, src.String())
	if err != nil {
		t.Fatalf("run: %v\nstdout: %s\nstderr: %s", err, out, stderr)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, res, ok := strings.Cut(line, ": "); ok {
			got[name] = res
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got[c.name] != c.want {
				t.Errorf("%s: got %q, want %q", c.call, got[c.name], c.want)
			}
		})
	}
}

// TestForeignABIKilled makes system calls through the i386 and x32 ABIs,
// which a filter written in x86_64 numbers cannot judge: the first such call
// must kill the process, harmless or not.
func TestForeignABIKilled(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the probes are x86_64 machine code")
	}
	// A kernel without the i386 entry (IA32 emulation off at run time)
	// faults on int 0x80 before any system call, sandbox or not: there
	// the process dies by SIGSEGV, which kills it as surely.
	i386 := "signal SIGSYS"
	out, err := exec.Command("/usr/bin/python3", "-c", escapePrelude+"probe('i386 getpid', lambda: i386(20))\n").Output()
	if err != nil {
		t.Fatalf("i386 probe outside the sandbox: %v", err)
	}
	if strings.TrimSpace(string(out)) == "i386 getpid: signal SIGSEGV" {
		t.Log("this kernel has no i386 system call entry: int 0x80 faults outside the sandbox too")
		i386 = "signal SIGSEGV"
	}
	runEscapeCases(t, []escapeCase{
		{"native getpid (control)", "native(39)", "ok"},
		{"native unshare", "native(272, CLONE_NEWUSER | CLONE_NEWNET)", "EPERM"},
		{"i386 getpid", "i386(20)", i386},
		{"i386 unshare", "i386(310, CLONE_NEWUSER | CLONE_NEWNET)", i386},
		{"i386 io_uring_setup", "i386(425, 1, 0)", i386},
		{"i386 userfaultfd", "i386(374, 1)", i386},
		{"i386 keyctl", "i386(288, 0, -3, 1)", i386},
		{"i386 bpf", "i386(357, 0, 0, 0)", i386},
		{"i386 perf_event_open", "i386(336, 0, 0, -1)", i386},
		{"x32 getpid", "x32(39)", "signal SIGSYS"},
		{"x32 unshare", "x32(272, CLONE_NEWUSER | CLONE_NEWNET)", "signal SIGSYS"},
		{"syscall -1", "native(0xffffffff)", "signal SIGSYS"},
	})
}

// TestNativeEscapesDenied calls, with arguments that succeed on an
// unfiltered kernel, the native system calls an escape would use.
func TestNativeEscapesDenied(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the probes use x86_64 syscall numbers")
	}
	runEscapeCases(t, []escapeCase{
		{"unshare user ns", "sc(272, CLONE_NEWUSER)", "EPERM"},
		{"unshare net ns", "sc(272, CLONE_NEWNET)", "EPERM"},
		{"clone new user ns", "clone_newuser()", "EPERM"},
		{"clone3", "sc(435, 0, 0)", "ENOSYS"},
		{"setns", "sc(308, os.open('/proc/self/ns/net', os.O_RDONLY), 0)", "EPERM"},
		{"io_uring_setup", "sc(425, 1, buf(120))", "EPERM"},
		{"userfaultfd user mode", "sc(323, 1)", "EPERM"},
		{"keyctl session keyring", "sc(250, 0, -3, 1)", "EPERM"},
		{"add_key", "sc(248, ctypes.addressof(ctypes.create_string_buffer(b'user')), ctypes.addressof(ctypes.create_string_buffer(b'k')), buf(1), 1, -3)", "EPERM"},
		{"bpf", "sc(321, 0, buf(128), 128)", "EPERM"},
		{"perf_event_open self", "perf_event_open()", "EPERM"},
		{"ptrace traceme", "sc(101, 0, 0, 0, 0)", "EPERM"},
		{"process_vm_readv self", "process_vm_readv()", "EPERM"},
		{"pidfd_getfd self", "sc(438, sc(434, os.getpid(), 0), 0, 0)", "EPERM"},
		{"process_madvise self", "sc(440, sc(434, os.getpid(), 0), iovec(page(), mmap.PAGESIZE), 1, 20, 0)", "EPERM"},
		{"kcmp self", "sc(312, os.getpid(), os.getpid(), 0, 0, 0)", "EPERM"},
		{"name_to_handle_at", "name_to_handle_at()", "EPERM"},
		{"fsopen", "sc(430, ctypes.addressof(ctypes.create_string_buffer(b'tmpfs')), 0)", "EPERM"},
		{"open_tree", "sc(428, -100, ctypes.addressof(ctypes.create_string_buffer(b'/tmp')), 1)", "EPERM"},
		{"mount", "sc(165, 0, buf(8), 0, 0, 0)", "EPERM"},
		{"shmget", "sc(29, 0, 4096, 0o1600)", "EPERM"},
		{"semget", "sc(64, 0, 1, 0o1600)", "EPERM"},
		{"msgget", "sc(68, 0, 0o1600)", "EPERM"},
		{"mq_open", "sc(240, ctypes.addressof(ctypes.create_string_buffer(b'ticoder')), os.O_CREAT | os.O_RDWR, 0o600, 0)", "EPERM"},
		{"socket vsock", "sc(41, 40, 1, 0)", "EAFNOSUPPORT"},
		{"socket alg", "sc(41, 38, 5, 0)", "EAFNOSUPPORT"},
		{"socket inet", "sc(41, 2, 1, 0)", "ok"},
		{"socket netlink", "sc(41, 16, 3, 0)", "ok"},
	})
}
