package sandbox

import (
	"bufio"
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
//	/usr, /etc           the host's, bind-mounted read-only
//	/bin, /lib, …        the host's symlinks into /usr (or read-only binds)
//	/tmp                 a private tmpfs of cfg.TmpBytes, the only writable place
//	/proc                a fresh procfs of the sandbox's pid namespace
//	/dev                 null, zero, full, random, urandom and a few links
//
// Nothing else of the host (home directories, the project, sockets) exists
// inside. The root itself is a read-only tmpfs.
func buildRoot(cfg Config) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := unix.Mount("tmpfs", newRoot, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=4m,mode=0755"); err != nil {
		return fmt.Errorf("mount root tmpfs: %w", err)
	}
	for _, d := range []string{"/usr", "/etc"} {
		if err := bindReadOnly(d, newRoot+d); err != nil {
			return err
		}
	}
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
			continue
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(d)
			if err != nil {
				return fmt.Errorf("read link %s: %w", d, err)
			}
			if err := os.Symlink(target, newRoot+d); err != nil {
				return fmt.Errorf("link %s: %w", d, err)
			}
		case fi.IsDir():
			if err := bindReadOnly(d, newRoot+d); err != nil {
				return err
			}
		}
	}
	if err := mountTmp(cfg.TmpBytes); err != nil {
		return err
	}
	if err := os.Mkdir(newRoot+"/proc", 0o555); err != nil {
		return fmt.Errorf("mkdir /proc: %w", err)
	}
	if err := unix.Mount("proc", newRoot+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	if err := buildDev(); err != nil {
		return err
	}
	return pivot()
}

func mountTmp(size int64) error {
	dir := newRoot + "/tmp"
	if err := os.Mkdir(dir, 0o1777); err != nil {
		return fmt.Errorf("mkdir /tmp: %w", err)
	}
	opts := fmt.Sprintf("size=%d,mode=1777,nr_inodes=16k", size)
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
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

// bindReadOnly bind-mounts src (recursively) on dst and makes every mount
// under dst read-only, keeping the flags the kernel locks in a user
// namespace (nosuid, nodev, noexec, atime).
func bindReadOnly(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("mkdir %s: %w", dst, err)
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
