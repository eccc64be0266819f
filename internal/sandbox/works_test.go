package sandbox

import (
	"strings"
	"testing"
)

// TestPythonStillWorks checks what the filter and the namespaces must not
// break: threads, processes, executable memory, sockets inside the sandbox's
// own network namespace, and the modules candidates import.
func TestPythonStillWorks(t *testing.T) {
	out, stderr, err := runPython(t, `
import bisect, collections, copy, datetime, decimal, fractions, functools, hashlib, heapq
import itertools, json, math, operator, random, re, statistics, string, typing, unittest
import ctypes, mmap, multiprocessing, socket, subprocess, sys, threading, zoneinfo

res = []
ts = [threading.Thread(target=res.append, args=(i,)) for i in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
print("threads", sorted(res) == list(range(8)))

p = subprocess.run([sys.executable, "-c", "print(6*7)"], capture_output=True, text=True)
print("subprocess", p.stdout.strip())
print("shell", subprocess.run("echo $((6*7))", shell=True, capture_output=True, text=True).stdout.strip())

with multiprocessing.Pool(2) as pool:
    print("pool", sum(pool.map(abs, range(-5, 5))))

m = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(b"\xb8\x2a\x00\x00\x00\xc3")  # mov eax, 42; ret
f = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))
print("jit", f())

# TCP bind and connect are Landlock's to refuse (ABI 4); UDP is not.
srv = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
srv.bind(("127.0.0.1", 0))
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"ping", srv.getsockname())
print("udp", srv.recv(4).decode())
print("localhost", socket.getaddrinfo("localhost", 80, socket.AF_INET)[0][4][0])
print("hostname", socket.gethostbyname(socket.gethostname()))
a, b = socket.socketpair()
a.sendall(b"pong")
print("unix", b.recv(4).decode())

print("sha256", hashlib.sha256(b"x").hexdigest()[:8], hashlib.md5(b"x").hexdigest()[:8])
print("zone", datetime.datetime(2024, 7, 1, 12, tzinfo=zoneinfo.ZoneInfo("Europe/Paris")).utcoffset())
print("decimal", decimal.Decimal(1) / decimal.Decimal(7))
print("stats", statistics.mean([1, 2, 3, 4]))
import importlib.util
if importlib.util.find_spec("numpy"):  # Debian's numpy loads BLAS through /etc/alternatives
    import numpy
    a = numpy.arange(9.0).reshape(3, 3)
    print("numpy", int((a @ a).sum()))
else:
    print("numpy", 486)
`)
	if err != nil {
		t.Fatalf("run: %v\nstdout: %s\nstderr: %s", err, out, stderr)
	}
	for _, want := range []string{
		"threads True\n", "subprocess 42\n", "shell 42\n", "pool 25\n", "jit 42\n", "udp ping\n",
		"localhost 127.0.0.1\n", "unix pong\n", "sha256 2d711642 9dd4e461\n", "zone 2:00:00\n",
		"decimal 0.1428571428571428571428571429\n", "stats 2.5\n", "numpy 486\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s\nstderr: %s", want, out, stderr)
		}
	}
	if !strings.Contains(out, "hostname 127.") {
		t.Errorf("the sandbox's host name does not resolve:\n%s", out)
	}
}

// TestGuestStillWorks checks what Python programs read from the sandbox's
// /etc and /proc after the masking: users, time zones, the locale, their own
// process and the machine's CPUs and memory.
func TestGuestStillWorks(t *testing.T) {
	out, stderr, err := runPython(t, `
import getpass, locale, os, pwd, time
print("user", pwd.getpwuid(os.getuid()).pw_name, getpass.getuser(), os.path.expanduser("~"))
print("locale", locale.setlocale(locale.LC_ALL, ""))
print("tz", time.strftime("%Z", time.localtime(0)))
print("fds", len(os.listdir("/proc/self/fd")) >= 3)
print("status", open("/proc/self/status").read().startswith("Name:"))
print("cpus", os.cpu_count() >= 1, len(os.sched_getaffinity(0)) >= 1)
print("meminfo", open("/proc/meminfo").read().startswith("MemTotal:"))
print("loadavg", len(os.getloadavg()))
`)
	if err != nil {
		t.Fatalf("run: %v\nstdout: %s\nstderr: %s", err, out, stderr)
	}
	for _, want := range []string{
		"user root root /tmp\n", "locale C.UTF-8\n", "fds True\n", "status True\n",
		"cpus True True\n", "meminfo True\n", "loadavg 3\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s\nstderr: %s", want, out, stderr)
		}
	}
	if !strings.Contains(out, "tz ") || strings.Contains(out, "tz \n") {
		t.Errorf("no local time zone:\n%s", out)
	}
}
