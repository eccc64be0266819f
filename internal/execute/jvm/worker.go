package jvm

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// jvmNonce is the length of the secret every frame of the JVM worker starts
// with.
const jvmNonce = 32

// maxJVMText bounds one text field of a frame from the JVM (the worker clips
// its texts to 2,000 UTF-16 units).
const maxJVMText = 8000

// jvmWorker is one long-lived sandboxed JVM running the worker of
// jworker/ticoder/jworker/Worker.java. It serves one request at a time.
type jvmWorker struct {
	cmd   *exec.Cmd
	stdin *os.File
	out   *os.File
	rd    *bufio.Reader
	nonce [jvmNonce]byte
	done  chan struct{}
	cg    *sandbox.Cgroup
	err   *execute.CapWriter
}

// jvmSpec is what every JVM of a pool is started with.
type jvmSpec struct {
	home    string
	jar     []byte
	heapMiB int64
	limits  sandbox.CgroupLimits
	cgroups *sandbox.Cgroups
	cfg     sandbox.Config
	// project, when not nil, is the project the programs run in.
	project *Project
	// addressSpace is RLIMIT_AS, used where no memory cgroup bounds the JVM.
	addressSpace uint64
}

// jvmArgs are the JVM's options: a small serial-GC heap, no attach, no
// perf data file in /tmp, no signal-triggered thread dumps on stdout, no
// security manager to install, exit on OutOfMemoryError (the test running
// is a crash, the JVM is replaced), and only the modules the worker needs
// (no jdk.unsupported, so no sun.misc.Unsafe; no jdk.incubator.foreign, no
// java.instrument, no jdk.attach).
func (s *jvmSpec) jvmArgs() []string {
	args := []string{
		fmt.Sprintf("-Xmx%dm", s.heapMiB), "-Xms32m", "-Xss8m",
		"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
		"-XX:ReservedCodeCacheSize=64m", "-XX:CompressedClassSpaceSize=128m", "-XX:MaxMetaspaceSize=256m",
		"-XX:-UsePerfData", "-XX:+DisableAttachMechanism", "-Xrs", "-XX:-UseContainerSupport",
		"-XX:+ExitOnOutOfMemoryError", "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=/dev/null",
		"-Xshare:auto", "-Djava.security.manager=disallow", "-Djava.io.tmpdir=/tmp", "-Duser.home=/tmp",
		"-Dfile.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8",
	}
	return append(append(args, s.project.properties()...),
		"--limit-modules", "java.base,java.compiler,jdk.compiler,ticoder.jworker",
		"--add-exports", "java.base/jdk.internal.loader=ticoder.jworker",
		"--module-path", "/ticoder/jworker.jar", "--module", "ticoder.jworker/ticoder.jworker.Worker")
}

// startJVM starts a JVM worker and waits for its hello.
func startJVM(s *jvmSpec) (*jvmWorker, error) {
	cfg := s.cfg
	cfg.Python = filepath.Join(s.home, "bin", "java")
	cfg.Args = s.jvmArgs()
	cfg.JVM = sandbox.JVMConfig{Enabled: true, Files: map[string][]byte{"jworker.jar": s.jar},
		ReadOnly: s.project.readOnly(), Processes: uint64(s.limits.Processes) + 48}
	if !s.cgroups.Bounds("memory") {
		cfg.JVM.AddressSpace = s.addressSpace
	}
	var cmd *exec.Cmd
	var err error
	if cfg.Unsafe {
		return nil, fmt.Errorf("java: --unsafe-no-sandbox is not supported for Java (the JVM worker relies on the sandbox's missing /proc and noexec /tmp)")
	}
	if cmd, err = sandbox.Command(cfg); err != nil {
		return nil, err
	}
	cg, err := s.cgroups.New(s.limits)
	if err != nil {
		return nil, fmt.Errorf("start jvm: %w", err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		_ = cg.Close()
		return nil, fmt.Errorf("start jvm: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		_ = cg.Close()
		return nil, fmt.Errorf("start jvm: %w", err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	stderr := execute.NewCapWriter(8 << 10)
	cmd.Stderr = stderr
	if err := cg.Start(cmd); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		_ = cg.Close()
		return nil, fmt.Errorf("start jvm: %w", err)
	}
	inR.Close()
	outW.Close()
	w := &jvmWorker{cmd: cmd, stdin: inW, out: outR, rd: bufio.NewReaderSize(outR, 1<<16), done: make(chan struct{}), cg: cg, err: stderr}
	go func() {
		_ = cmd.Wait()
		close(w.done)
	}()
	if _, err := rand.Read(w.nonce[:]); err != nil {
		w.kill()
		return nil, fmt.Errorf("start jvm: %w", err)
	}
	if _, err := w.stdin.Write(w.nonce[:]); err != nil {
		w.kill()
		return nil, fmt.Errorf("start jvm: %w: %s", err, stderr.String())
	}
	if err := w.expect(time.Now().Add(60*time.Second), 'H'); err != nil {
		w.kill()
		return nil, fmt.Errorf("start jvm: the worker did not start (%v): %s", err, stderr.String())
	}
	return w, nil
}

// javaTest is one test as the worker takes it: kind 'M' runs the static
// main of class name (source is compiled against the program), kind 'V'
// evaluates the expression name and compares it with expected, if any.
type javaTest struct {
	kind     byte
	source   string
	name     string
	expected string
	timeout  float64
}

// send writes one run request.
func (w *jvmWorker) send(program string, tests []javaTest) error {
	var b bytes.Buffer
	b.WriteByte('R')
	putText(&b, program)
	_ = binary.Write(&b, binary.BigEndian, int32(len(tests)))
	for _, t := range tests {
		b.WriteByte(t.kind)
		putText(&b, t.source)
		putText(&b, t.name)
		putText(&b, t.expected)
		_ = binary.Write(&b, binary.BigEndian, t.timeout)
	}
	frame := make([]byte, 4, 4+b.Len())
	binary.BigEndian.PutUint32(frame, uint32(b.Len()))
	frame = append(frame, b.Bytes()...)
	if _, err := w.stdin.Write(frame); err != nil {
		return fmt.Errorf("%w: %v", execute.ErrWorkerDead, err)
	}
	return nil
}

func putText(b *bytes.Buffer, s string) {
	_ = binary.Write(b, binary.BigEndian, int32(len(s)))
	b.WriteString(s)
}

// expect reads a frame header (nonce and type) and checks both.
func (w *jvmWorker) expect(deadline time.Time, types ...byte) error {
	_, err := w.header(context.Background(), deadline, types...)
	return err
}

func (w *jvmWorker) header(ctx context.Context, deadline time.Time, types ...byte) (byte, error) {
	if err := execute.ArmDeadline(ctx, w.out, deadline); err != nil {
		return 0, fmt.Errorf("%w: %v", execute.ErrWorkerDead, err)
	}
	var hdr [jvmNonce + 1]byte
	if _, err := io.ReadFull(w.rd, hdr[:]); err != nil {
		return 0, fmt.Errorf("%w: %v", execute.ErrWorkerDead, err)
	}
	if subtle.ConstantTimeCompare(hdr[:jvmNonce], w.nonce[:]) != 1 {
		return 0, fmt.Errorf("%w: a frame without the worker's nonce (written by the program?)", execute.ErrWorkerDead)
	}
	for _, t := range types {
		if hdr[jvmNonce] == t {
			return t, nil
		}
	}
	return 0, fmt.Errorf("%w: unexpected frame type %q", execute.ErrWorkerDead, hdr[jvmNonce])
}

// jvmReply is a test result ('T') or the end of a request ('D').
type jvmReply struct {
	typ    byte
	index  int
	result execute.Result
	dirty  bool
}

// recv reads the next 'T' or 'D' frame, validating every field; it fails
// at once when ctx is done.
func (w *jvmWorker) recv(ctx context.Context, deadline time.Time) (jvmReply, error) {
	typ, err := w.header(ctx, deadline, 'T', 'D')
	if err != nil {
		return jvmReply{}, err
	}
	r := jvmReply{typ: typ}
	if typ == 'D' {
		r.dirty, err = w.readBool()
		return r, err
	}
	var idx int32
	if err := binary.Read(w.rd, binary.BigEndian, &idx); err != nil {
		return r, fmt.Errorf("%w: %v", execute.ErrWorkerDead, err)
	}
	o, err := w.rd.ReadByte()
	if err != nil {
		return r, fmt.Errorf("%w: %v", execute.ErrWorkerDead, err)
	}
	if o > byte(execute.Crash) || idx < 0 {
		return r, fmt.Errorf("%w: garbled result", execute.ErrWorkerDead)
	}
	exc, err := w.readText()
	if err != nil {
		return r, err
	}
	hasValue, err := w.readBool()
	if err != nil {
		return r, err
	}
	value, err := w.readText()
	if err != nil {
		return r, err
	}
	var secs float64
	if err := binary.Read(w.rd, binary.BigEndian, &secs); err != nil {
		return r, fmt.Errorf("%w: %v", execute.ErrWorkerDead, err)
	}
	if secs < 0 || secs > 1e6 || math.IsNaN(secs) {
		secs = 0
	}
	r.index = int(idx)
	r.result = execute.Result{Outcome: execute.Outcome(o), Exception: exc, HasValue: hasValue, Value: value, Seconds: secs}
	return r, nil
}

func (w *jvmWorker) readBool() (bool, error) {
	b, err := w.rd.ReadByte()
	if err != nil || b > 1 {
		return false, fmt.Errorf("%w: garbled flag (%v)", execute.ErrWorkerDead, err)
	}
	return b == 1, nil
}

func (w *jvmWorker) readText() (string, error) {
	var n int32
	if err := binary.Read(w.rd, binary.BigEndian, &n); err != nil {
		return "", fmt.Errorf("%w: %v", execute.ErrWorkerDead, err)
	}
	if n < 0 || n > maxJVMText {
		return "", fmt.Errorf("%w: text of %d bytes", execute.ErrWorkerDead, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(w.rd, b); err != nil {
		return "", fmt.Errorf("%w: %v", execute.ErrWorkerDead, err)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: text is not UTF-8", execute.ErrWorkerDead)
	}
	return string(b), nil
}

// exited is closed when the JVM's process has exited.
func (w *jvmWorker) exited() <-chan struct{} { return w.done }

// kill stops the JVM and everything in its sandbox, and removes its cgroup.
func (w *jvmWorker) kill() {
	if w.cmd.Process != nil {
		_ = w.cmd.Process.Kill()
	}
	<-w.done
	w.stdin.Close()
	w.out.Close()
	_ = w.cg.Close()
}
