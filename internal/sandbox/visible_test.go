package sandbox

import (
	"os"
	"strings"
	"testing"
)

// TestHostHidden checks that the sandbox shows no more of the host than
// Python needs: no host configuration, no other programs, no /usr/local, and
// a /proc whose host-wide files are empty.
func TestHostHidden(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runPython(t, `
import os, sys
def show(kind, path):
    try:
        if kind == "exists":
            r = os.path.lexists(path)
        elif kind == "read":
            with open(path, "rb") as f:
                r = f.read()
        elif kind == "masked":  # absent, or empty
            r = not os.path.lexists(path) or open(path, "rb").read() == b""
        elif kind == "list":
            r = sorted(os.listdir(path))
        elif kind == "write":
            with open(path, "w") as f:
                f.write("b")
            r = "written"
    except OSError as e:
        r = type(e).__name__
    print("%s %s: %r" % (kind, path, r))

for p in ["/etc/machine-id", "/etc/hostname", "/etc/shadow", "/etc/ssl", "/etc/os-release", "/etc/pip.conf",
          "/etc/resolv.conf", "/etc/alternatives/editor", "/usr/local", "/usr/share/doc", "/usr/bin/ls",
          "/usr/bin/pip3", "/usr/lib/os-release", "/usr/lib/git-core", "/usr/include", "/root", "/home",
          "/var", "/opt", "/srv", "/sys", "/work", "/run", "/mnt", "/boot", "/usr/bin/python3",
          "/proc/self/fd/0", "/proc/sys/kernel/random/boot_id",
          "/proc/sys/kernel/cap_last_cap", "/proc/sys/user/max_user_namespaces"]:
    show("exists", p)
for p in ["/proc/config.gz", "/proc/keys", "/proc/kallsyms", "/proc/cmdline", "/proc/timer_list",
          "/proc/modules", "/proc/kcore", "/proc/interrupts", "/proc/locks"]:
    show("masked", p)
for p in ["/proc/sys", "/proc/pressure", "/proc/fs", "/proc/bus", "/proc/irq", "/proc/driver", "/proc/acpi"]:
    show("list", p)
show("write", "/proc/sysrq-trigger")
show("read", "/etc/passwd")
show("read", "/proc/self/mountinfo")
`)
	if err != nil {
		t.Fatalf("run: %v\nstdout: %s\nstderr: %s", err, out, stderr)
	}
	want := []string{
		"exists /etc/machine-id: False", "exists /etc/hostname: False", "exists /etc/shadow: False",
		"exists /etc/ssl: False", "exists /etc/os-release: False", "exists /etc/pip.conf: False",
		"exists /etc/resolv.conf: False", "exists /etc/alternatives/editor: False",
		"exists /usr/local: False", "exists /usr/share/doc: False", "exists /usr/bin/ls: False",
		"exists /usr/bin/pip3: False", "exists /usr/lib/os-release: False", "exists /usr/lib/git-core: False",
		"exists /usr/include: False", "exists /root: False", "exists /home: False", "exists /var: False",
		"exists /opt: False", "exists /srv: False", "exists /sys: False", "exists /work: False",
		"exists /run: False", "exists /mnt: False", "exists /boot: False",
		"exists /usr/bin/python3: True", "exists /proc/self/fd/0: True",
		"exists /proc/sys/kernel/random/boot_id: False", "exists /proc/sys/kernel/cap_last_cap: False",
		"exists /proc/sys/user/max_user_namespaces: False",
		"masked /proc/config.gz: True", "masked /proc/keys: True", "masked /proc/kallsyms: True",
		"masked /proc/cmdline: True", "masked /proc/timer_list: True", "masked /proc/modules: True",
		"masked /proc/kcore: True", "masked /proc/interrupts: True", "masked /proc/locks: True",
		"list /proc/sys: []", "list /proc/pressure: []", "list /proc/fs: []", "list /proc/bus: []",
		"list /proc/irq: []", "list /proc/driver: []",
		"read /etc/passwd: " + pyBytes(etcFiles["passwd"]),
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		lines[l] = true
	}
	for _, w := range want {
		if !lines[w] {
			t.Errorf("want %q", w)
		}
	}
	if lines["write /proc/sysrq-trigger: 'written'"] {
		t.Errorf("/proc/sysrq-trigger is writable")
	}
	mountinfo := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "read /proc/self/mountinfo: ") {
			mountinfo = l
		}
	}
	for _, host := range []string{wd, "/work", "oldroot", "/home", "/root", "/usr/local"} {
		if strings.Contains(mountinfo, host) {
			t.Errorf("mountinfo reveals %s: %s", host, mountinfo)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s\nstderr: %s", out, stderr)
	}
}

// pyBytes is Python's repr of a bytes object holding ASCII text s with
// newlines and tabs.
func pyBytes(s string) string {
	r := strings.NewReplacer("\n", `\n`, "\t", `\t`, "'", `\'`)
	return "b'" + r.Replace(s) + "'"
}
