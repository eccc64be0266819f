package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// newRoot is where the sandbox's root is assembled. The host's /tmp is only
// used as a mount point: a fresh tmpfs hides it in this mount namespace.
const newRoot = "/tmp"

// buildRoot assembles a minimal root file system and pivots into it:
//
//	/usr/…, /lib…        what the interpreter needs (see pythonLayout), each
//	                     at its host path, bind-mounted read-only
//	/etc                 generated passwd, group, hosts, nsswitch.conf plus
//	                     the host's ld.so.cache, localtime, protocols, services
//	/tmp                 a private tmpfs of cfg.TmpBytes, the only writable place
//	/proc                a fresh procfs of the sandbox's pid namespace, with
//	                     host-wide files masked (see mountProc)
//	/dev                 null, zero, full, random, urandom and a few links
//
// Nothing else of the host (the rest of /usr and /etc, home directories, the
// project, sockets) exists inside. The root itself is a read-only tmpfs. It
// returns the paths Landlock should let the sandbox read.
func buildRoot(cfg Config) ([]string, error) {
	l, err := layoutFor(cfg)
	if err != nil {
		return nil, err
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return nil, fmt.Errorf("make mounts private: %w", err)
	}
	if err := unix.Mount("tmpfs", newRoot, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=4m,mode=0755"); err != nil {
		return nil, fmt.Errorf("mount root tmpfs: %w", err)
	}
	if err := writeEtc(l.etc); err != nil {
		return nil, err
	}
	var m mirror
	if cfg.Project != nil {
		if err := m.showProject(*cfg.Project); err != nil {
			return nil, err
		}
	}
	for _, p := range append(l.dirs, l.files...) {
		if err := m.expose(p); err != nil {
			return nil, err
		}
	}
	if err := writeFiles(cfg.JVM.Files); err != nil {
		return nil, err
	}
	if err := mountTmp(cfg.TmpBytes, cfg.JVM.Enabled); err != nil {
		return nil, err
	}
	// A JVM runs untrusted code in its own process: without /proc it cannot
	// read its own memory (/proc/self/mem) or reopen its descriptors.
	if !cfg.JVM.Enabled {
		if err := mountProc(); err != nil {
			return nil, err
		}
	}
	if err := buildDev(); err != nil {
		return nil, err
	}
	readable := append(m.bound, "/etc")
	if cfg.Project != nil {
		// The rebuilt directories of the view must be listable (Python's
		// import system lists every directory on sys.path); they hold only
		// what the view shows.
		readable = append(readable, filepath.Clean(cfg.Project.Dir))
	}
	if len(cfg.JVM.Files) > 0 {
		readable = append(readable, filesDir)
	}
	return readable, pivot()
}

// writeEtc creates the sandbox's /etc with the given files.
func writeEtc(files map[string]string) error {
	if err := os.Mkdir(newRoot+"/etc", 0o755); err != nil {
		return fmt.Errorf("mkdir /etc: %w", err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(newRoot, "etc", name), []byte(content), 0o644); err != nil {
			return fmt.Errorf("write /etc/%s: %w", name, err)
		}
	}
	return nil
}

// mirror recreates host paths inside newRoot.
type mirror struct {
	// bound are the host paths bind-mounted so far, free of symlinks.
	bound []string
}

// maxHops bounds the symlinks followed to expose one path, as the kernel
// does when it resolves one.
const maxHops = 40

// errNotDir reports a path component that should be a directory.
var errNotDir = errors.New("not a directory")

// expose makes host path p appear at the same path inside newRoot, following
// it component by component: a directory becomes a directory, a symlink is
// copied as it is (so that relative and absolute links resolve inside as on
// the host) and its target exposed in turn, and what p finally names is
// bind-mounted read-only. Nothing is created inside a path already bound.
func (m *mirror) expose(p string) error {
	if err := m.walk(p, 0); err != nil {
		return fmt.Errorf("expose %s: %w", p, err)
	}
	return nil
}

func (m *mirror) walk(p string, hops int) error {
	parts := strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/")
	cur := "/"
	for i, name := range parts {
		next := filepath.Join(cur, name)
		inside := under(next, m.bound)
		fi, err := os.Lstat(next)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			if hops++; hops > maxHops {
				return unix.ELOOP
			}
			target, err := m.copyLink(next, inside)
			if err != nil {
				return err
			}
			return m.walk(filepath.Join(append([]string{target}, parts[i+1:]...)...), hops)
		case inside:
		case i == len(parts)-1:
			if err := bindReadOnly(next, newRoot+next, fi.IsDir()); err != nil {
				return err
			}
			m.bound = append(m.bound, next)
		case !fi.IsDir():
			return fmt.Errorf("%s: %w", next, errNotDir)
		default:
			if err := os.Mkdir(newRoot+next, 0o755); err != nil && !os.IsExist(err) {
				return fmt.Errorf("mkdir %s: %w", next, err)
			}
		}
		cur = next
	}
	return nil
}

// copyLink recreates the symlink link inside newRoot (unless it is inside a
// bound path, where it already is) and returns its target as an absolute
// path.
func (m *mirror) copyLink(link string, inside bool) (string, error) {
	target, err := os.Readlink(link)
	if err != nil {
		return "", fmt.Errorf("read link %s: %w", link, err)
	}
	if !inside {
		if err := os.Symlink(target, newRoot+link); err != nil && !os.IsExist(err) {
			return "", fmt.Errorf("link %s: %w", link, err)
		}
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(link), target)
	}
	return target, nil
}

// mountTmp mounts the private /tmp; noexec also keeps memory-mapped files in
// it from being executable (a JVM's System.load of a written library).
func mountTmp(size int64, noexec bool) error {
	dir := newRoot + "/tmp"
	if err := os.Mkdir(dir, 0o1777); err != nil {
		return fmt.Errorf("mkdir /tmp: %w", err)
	}
	opts := fmt.Sprintf("size=%d,mode=1777,nr_inodes=16k", size)
	flags := uintptr(unix.MS_NOSUID | unix.MS_NODEV)
	if noexec {
		flags |= unix.MS_NOEXEC
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", flags, opts); err != nil {
		return fmt.Errorf("mount /tmp: %w", err)
	}
	return nil
}

func buildDev() error {
	dev := newRoot + "/dev"
	if err := os.Mkdir(dev, 0o755); err != nil {
		return fmt.Errorf("mkdir /dev: %w", err)
	}
	for _, name := range []string{"null", "zero", "full", "random", "urandom"} {
		f, err := os.Create(filepath.Join(dev, name))
		if err != nil {
			return fmt.Errorf("create /dev/%s: %w", name, err)
		}
		f.Close()
		if err := unix.Mount("/dev/"+name, filepath.Join(dev, name), "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind /dev/%s: %w", name, err)
		}
	}
	links := map[string]string{
		"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
		"stderr": "/proc/self/fd/2", "shm": "/tmp",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dev, name)); err != nil {
			return fmt.Errorf("link /dev/%s: %w", name, err)
		}
	}
	return nil
}

// pivot makes newRoot the root, detaches the host's root and remounts the new
// root read-only.
func pivot() error {
	old := newRoot + "/.oldroot"
	if err := os.Mkdir(old, 0o700); err != nil {
		return fmt.Errorf("mkdir old root: %w", err)
	}
	if err := unix.PivotRoot(newRoot, old); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return fmt.Errorf("chdir /: %w", err)
	}
	if err := unix.Unmount("/.oldroot", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach old root: %w", err)
	}
	if err := os.Remove("/.oldroot"); err != nil {
		return fmt.Errorf("remove old root: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("remount root read-only: %w", err)
	}
	return unix.Chdir("/tmp")
}

// bindReadOnly bind-mounts src (recursively) on dst, a directory or a file
// it creates, and makes every mount under dst read-only, keeping the flags
// the kernel locks in a user namespace (nosuid, nodev, noexec, atime).
func bindReadOnly(src, dst string, dir bool) error {
	if err := mountPoint(dst, dir); err != nil {
		return err
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", src, err)
	}
	points, err := mountPointsUnder(dst)
	if err != nil {
		return err
	}
	for _, p := range points {
		var st unix.Statfs_t
		if err := unix.Statfs(p, &st); err != nil {
			return fmt.Errorf("statfs %s: %w", p, err)
		}
		flags := uintptr(unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY) | lockedFlags(st.Flags)
		if err := unix.Mount("", p, "", flags, ""); err != nil {
			return fmt.Errorf("remount %s read-only: %w", p, err)
		}
	}
	return nil
}

// mountPoint creates an empty directory or file to mount on.
func mountPoint(dst string, dir bool) error {
	if dir {
		if err := os.Mkdir(dst, 0o755); err != nil && !os.IsExist(err) {
			return fmt.Errorf("mkdir %s: %w", dst, err)
		}
		return nil
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", dst, err)
	}
	return f.Close()
}

func lockedFlags(st int64) uintptr {
	var f uintptr
	pairs := []struct{ st, ms int64 }{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	}
	for _, p := range pairs {
		if st&p.st != 0 {
			f |= uintptr(p.ms)
		}
	}
	return f
}

// mountPointsUnder lists dst and every mount point below it, parents first.
func mountPointsUnder(dst string) ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("read mountinfo: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		p := unescapeMountPath(fields[4])
		if p == dst || strings.HasPrefix(p, dst+"/") {
			out = append(out, p)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mountinfo: %w", err)
	}
	return out, nil
}

// unescapeMountPath decodes mountinfo's octal escapes (\040 for a space).
func unescapeMountPath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
