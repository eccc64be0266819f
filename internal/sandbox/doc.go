// Package sandbox runs untrusted Python programs isolated from the host.
//
// A sandboxed process is started by re-executing the ticoder binary as the
// init process of new user, mount, pid, net, ipc, uts and cgroup namespaces.
// That init builds a read-only root holding only what the interpreter needs
// (its binary, standard library and shared libraries, a generated /etc),
// mounts a private size-limited tmpfs on /tmp and a fresh /proc with the
// host-wide files masked, forbids nested namespaces, applies rlimits,
// Landlock, a seccomp filter (foreign system call ABIs kill the process) and
// an empty capability set, scrubs the environment, and finally executes
// /usr/bin/python3. Every program that uses this package must call Main first
// thing in its main function (and tests in TestMain), so that the re-executed
// binary becomes the init.
//
// sandbox must not know what the process it isolates computes or whether it
// is right: it starts the process (Python, or a JVM: JVMConfig) and leaves
// judging to package execute.
package sandbox
