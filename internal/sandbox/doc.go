// Package sandbox runs untrusted Python programs isolated from the host.
//
// A sandboxed process is started by re-executing the ticoder binary as the
// init process of new user, mount, pid, net, ipc and uts namespaces. That init
// builds a read-only root from the host's /usr, /etc and library directories,
// mounts a private size-limited tmpfs on /tmp and a fresh /proc, applies
// rlimits, Landlock, a seccomp filter and an empty capability set, scrubs the
// environment, and finally executes /usr/bin/python3. Every program that uses
// this package must call Main first thing in its main function (and tests in
// TestMain), so that the re-executed binary becomes the init.
package sandbox
