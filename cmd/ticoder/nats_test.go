package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/natsexec"
	"github.com/ticoder/ticoder/internal/store"
	"github.com/ticoder/ticoder/internal/testutil"
)

// asMainEnv makes the test binary run as ticoder (see TestMain).
const asMainEnv = "TICODER_TEST_AS_MAIN"

// proc is a ticoder process a test started: a worker or a coordinator.
type proc struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
	err  error
}

// startTicoder starts this test binary as `ticoder ARGS…`; the process is
// killed when the test ends.
func startTicoder(t *testing.T, args ...string) *proc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TICODER_NATS") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, asMainEnv+"=1")
	p := &proc{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(p.kill)
	return p
}

// kill stops the process with SIGKILL and waits for it.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// wait waits up to d for the process to exit and returns its error; if it
// does not exit in time it fails the test with what the process wrote.
func (p *proc) wait(t *testing.T, d time.Duration, what string) error {
	t.Helper()
	select {
	case <-p.done:
		return p.err
	case <-time.After(d):
		p.kill()
		t.Fatalf("%s did not finish within %v; its output:\n%s", what, d, p.out.String())
	}
	return nil
}

// waitOutput waits up to d until the process has written substr.
func (p *proc) waitOutput(t *testing.T, substr string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !strings.Contains(p.out.String(), substr) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %q; the process wrote:\n%s", d, substr, p.out.String())
		}
		select {
		case <-p.done:
			t.Fatalf("the process exited (%v) before writing %q:\n%s", p.err, substr, p.out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// testBroker starts an embedded NATS server on a free loopback port. The
// test's ticoder processes share a data directory of their own (through
// $XDG_DATA_HOME), so the workers' key is the one the coordinators trust.
func testBroker(t *testing.T) string {
	t.Helper()
	return testBrokerToken(t, "")
}

// testBrokerToken is testBroker with a token, if not "": the URL it
// returns holds it (nats://TOKEN@127.0.0.1:PORT), so each ticoder process
// logs in with its role's password derived from it.
func testBrokerToken(t *testing.T, token string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", home)
	if _, err := natsexec.LoadWorkerKey(filepath.Join(home, "ticoder", "worker.nk")); err != nil {
		t.Fatal(err)
	}
	b, err := natsexec.StartBroker(natsexec.BrokerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Shutdown)
	if token != "" {
		return strings.Replace(b.URL(), "nats://", "nats://"+token+"@", 1)
	}
	return b.URL()
}

// slowSamples writes n samples of HumanEval/7 that each sleep 0.05 s in each call; every
// third is wrong. It returns the file and each sample's expected result.
func slowSamples(t *testing.T, n int) (string, []string) {
	t.Helper()
	var lines, want []string
	for i := range n {
		body, verdict := "    return [x for x in strings if substring in x]\n", "passed"
		if i%3 == 0 {
			body, verdict = "    return strings\n", "failed: AssertionError"
		}
		c := fmt.Sprintf("    import time\n    time.sleep(0.05)  # sample %d\n%s", i, body)
		lines = append(lines, jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": c}))
		want = append(want, verdict)
	}
	path := filepath.Join(t.TempDir(), "samples.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, want
}

// checkArgs are the arguments of a check of samples through NATS.
func checkArgs(t *testing.T, url, cache, samples, out string, extra ...string) []string {
	return append([]string{"--data-dir", testutil.Fixtures(t), "--cache", cache, "--nats", url,
		"check", "--dataset", "humaneval-noexamples", "--samples", samples, "--out", out, "--timeout", "5s", "-k", "1"}, extra...)
}

// readVerdicts reads a check results file: the result of each sample, by
// the sample's number in its completion.
func readVerdicts(t *testing.T, path string) map[int]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	num := regexp.MustCompile(`# sample (\d+)`)
	got := map[int]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r struct {
			Completion string `json:"completion"`
			Result     string `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		m := num.FindStringSubmatch(r.Completion)
		if m == nil {
			t.Fatalf("%s: a result for a completion that is not a test sample: %q", path, r.Completion)
		}
		i, _ := strconv.Atoi(m[1])
		if _, dup := got[i]; dup {
			t.Errorf("%s: sample %d has two results", path, i)
		}
		got[i] = r.Result
	}
	return got
}

// checkVerdicts compares a results file with the expected results.
func checkVerdicts(t *testing.T, path string, want []string) {
	t.Helper()
	got := readVerdicts(t, path)
	if len(got) != len(want) {
		t.Errorf("%d results for %d samples", len(got), len(want))
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("sample %d: %q, want %q", i, got[i], w)
		}
	}
}

// programsRun sums the programs of the jobs a worker's -v log says it
// finished.
func programsRun(log string) int {
	n := 0
	for _, m := range regexp.MustCompile(`msg="worker: job done".* programs=(\d+)`).FindAllStringSubmatch(log, -1) {
		k, _ := strconv.Atoi(m[1])
		n += k
	}
	return n
}

// TestNATSMatchesLocal: check and eval through a broker and a worker process
// give the same results as the local pool.
func TestNATSMatchesLocal(t *testing.T) {
	url := testBroker(t)
	startTicoder(t, "-v", "worker", "--nats", url, "--workers", "2")
	dir := t.TempDir()
	samples := filepath.Join(testutil.Fixtures(t), recorded, "codes.jsonl")

	t.Run("check", func(t *testing.T) {
		for _, via := range []string{"local", "nats"} {
			args := []string{"--data-dir", testutil.Fixtures(t), "--cache", filepath.Join(dir, via+".db"),
				"check", "--dataset", "humaneval-noexamples", "--samples", samples, "--out", filepath.Join(dir, via+".jsonl"), "--json"}
			if via == "nats" {
				args = append([]string{"--nats", url}, args...)
			}
			p := startTicoder(t, args...)
			if err := p.wait(t, 5*time.Minute, "check via "+via); err != nil {
				t.Fatalf("check via %s: %v\n%s", via, err, p.out.String())
			}
		}
		local, _ := os.ReadFile(filepath.Join(dir, "local.jsonl"))
		remote, _ := os.ReadFile(filepath.Join(dir, "nats.jsonl"))
		sameVerdicts(t, local, remote)
	})

	t.Run("eval", func(t *testing.T) {
		results := map[string][]byte{}
		for _, via := range []string{"local", "nats"} {
			g := genGlobals(t)
			if via == "nats" {
				g.nats.URL = url
			}
			out := filepath.Join(dir, "eval-"+via)
			o := evalTestOptions(t, out)
			o.stderr = &bytes.Buffer{}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			err := runEval(ctx, g, o)
			cancel()
			if err != nil {
				t.Fatalf("eval via %s: %v", via, err)
			}
			b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			// One line per problem, in the order the problems finished
			// (two run at once): compared as a set.
			lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
			if len(lines) != 2 {
				t.Errorf("eval via %s: %d result lines, want one per problem (2)", via, len(lines))
			}
			slices.SortFunc(lines, bytes.Compare)
			results[via] = bytes.Join(lines, []byte("\n"))
		}
		if !bytes.Equal(results["local"], results["nats"]) {
			t.Errorf("eval results differ:\nlocal: %.600s\nNATS:  %.600s", results["local"], results["nats"])
		}
	})
}

// TestNATSWorkerKilled: a worker killed with SIGKILL in the middle of a job
// loses it to the other worker; every sample has exactly one result.
func TestNATSWorkerKilled(t *testing.T) {
	url := testBroker(t)
	samples, want := slowSamples(t, 48)
	workers := []*proc{
		startTicoder(t, "-v", "worker", "--nats", url, "--workers", "2", "--jobs", "1", "--ack-wait", "2s", "--id", "a"),
		startTicoder(t, "-v", "worker", "--nats", url, "--workers", "2", "--jobs", "1", "--ack-wait", "2s", "--id", "b"),
	}
	for _, w := range workers {
		w.waitOutput(t, "worker ready", time.Minute)
	}
	out := filepath.Join(t.TempDir(), "results.jsonl")
	coord := startTicoder(t, checkArgs(t, url, filepath.Join(t.TempDir(), "cache.db"), samples, out)...)
	// Kill the first worker that starts a job, while it runs it.
	deadline := time.Now().Add(time.Minute)
	victim, other := -1, -1
	for victim < 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no worker started a job within a minute; coordinator:\n%s", coord.out.String())
		}
		for i, w := range workers {
			if strings.Contains(w.out.String(), "worker: job started") {
				victim, other = i, 1-i
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	if strings.Contains(workers[victim].out.String(), "worker: job done") {
		t.Fatal("the worker finished its job before it could be killed; make the samples slower")
	}
	workers[victim].kill()
	if err := coord.wait(t, 3*time.Minute, "check"); err != nil {
		t.Fatalf("check: %v\n%s", err, coord.out.String())
	}
	checkVerdicts(t, out, want)
	if !strings.Contains(workers[other].out.String(), "worker: job delivered again") {
		t.Errorf("the surviving worker never got the killed worker's job again; its log:\n%s", workers[other].out.String())
	}
}

// TestNATSPoisonJob: a program that kills every worker that runs it ends as
// a crash after MaxDeliver deliveries; the other programs of its job get
// their real results.
func TestNATSPoisonJob(t *testing.T) {
	url := testBroker(t)
	// A supervisor restarts the worker, as systemd would. Without a sandbox
	// the program can reach its worker: it kills its ancestor that is a
	// ticoder worker.
	var mu sync.Mutex
	var current *proc
	stop := make(chan struct{})
	starts := 0
	supervised := make(chan struct{})
	go func() {
		defer close(supervised)
		for {
			mu.Lock()
			current = startTicoder(t, "--unsafe-no-sandbox", "-v", "worker", "--nats", url, "--workers", "2",
				"--max-deliver", "2", "--ack-wait", "1s", "--jobs", "1")
			starts++
			p := current
			mu.Unlock()
			select {
			case <-p.done:
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		<-supervised
	})
	poison := `    import os
    pid = os.getppid()
    for _ in range(12):
        try:
            cmd = open('/proc/%d/cmdline' % pid, 'rb').read()
            stat = open('/proc/%d/stat' % pid).read()
        except OSError:
            break
        if b'worker' in cmd and b'--nats' in cmd:
            os.kill(pid, 9)
        pid = int(stat.rsplit(')', 1)[1].split()[1])
    return []  # sample 0
`
	lines := []string{jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": poison})}
	want := []string{""}
	for i := 1; i < 6; i++ {
		c := fmt.Sprintf("    return [x for x in strings if substring in x]  # sample %d\n", i)
		lines = append(lines, jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": c}))
		want = append(want, "passed")
	}
	samples := filepath.Join(t.TempDir(), "samples.jsonl")
	if err := os.WriteFile(samples, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "results.jsonl")
	coord := startTicoder(t, checkArgs(t, url, filepath.Join(t.TempDir(), "cache.db"), samples, out, "-v")...)
	if err := coord.wait(t, 3*time.Minute, "check"); err != nil {
		t.Fatalf("check: %v\n%s", err, coord.out.String())
	}
	got := readVerdicts(t, out)
	if !strings.HasPrefix(got[0], "failed: crashed (sandbox worker died or stopped each time this job ran") {
		t.Errorf("the poison sample: %q, want a crash after MaxDeliver", got[0])
	}
	for i := 1; i < len(want); i++ {
		if got[i] != want[i] {
			t.Errorf("sample %d, in the poison sample's job: %q, want %q", i, got[i], want[i])
		}
	}
	mu.Lock()
	n := starts
	mu.Unlock()
	if n < 3 {
		t.Errorf("the worker was started %d times; the poison sample should have killed it at least twice", n)
	}
}

// TestNATSCoordinatorRestart: a coordinator killed in the middle of a run
// and started again finishes it; the jobs the worker finished meanwhile are
// not run again.
func TestNATSCoordinatorRestart(t *testing.T) {
	url := testBroker(t)
	worker := startTicoder(t, "-v", "worker", "--nats", url, "--workers", "2", "--jobs", "1")
	worker.waitOutput(t, "worker ready", time.Minute)
	samples, want := slowSamples(t, 48)
	cache := filepath.Join(t.TempDir(), "cache.db")
	out := filepath.Join(t.TempDir(), "results.jsonl")
	first := startTicoder(t, checkArgs(t, url, cache, samples, out)...)
	// Kill it once the first job's results are in its cache.
	db, err := store.Open(cache)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM exec_results`).Scan(&n); err == nil && n >= 16 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no results reached the cache within 2 minutes; coordinator:\n%s\nworker:\n%s", first.out.String(), worker.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	first.kill()
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the killed coordinator had already finished")
	}
	second := startTicoder(t, checkArgs(t, url, cache, samples, out)...)
	if err := second.wait(t, 3*time.Minute, "the restarted check"); err != nil {
		t.Fatalf("restarted check: %v\n%s", err, second.out.String())
	}
	checkVerdicts(t, out, want)
	if n := programsRun(worker.out.String()); n != len(want) {
		t.Errorf("the worker ran %d programs for %d samples: the restart ran work again", n, len(want))
	}
}

// TestNATSLateWorker: a worker started after the run began takes its work;
// the broker has a token, so the coordinator and the worker log in with
// their roles' rights.
func TestNATSLateWorker(t *testing.T) {
	url := testBrokerToken(t, "s3cret")
	samples, want := slowSamples(t, 6)
	out := filepath.Join(t.TempDir(), "results.jsonl")
	coord := startTicoder(t, checkArgs(t, url, filepath.Join(t.TempDir(), "cache.db"), samples, out, "-v")...)
	coord.waitOutput(t, "nats: job queued", time.Minute)
	worker := startTicoder(t, "worker", "--nats", url, "--workers", "2")
	if err := coord.wait(t, 3*time.Minute, "check"); err != nil {
		t.Fatalf("check: %v\n%s", err, coord.out.String())
	}
	checkVerdicts(t, out, want)
	for name, p := range map[string]*proc{"coordinator": coord, "worker": worker} {
		if log := p.out.String(); strings.Contains(log, "Permissions Violation") {
			t.Errorf("the %s was refused something its role needs:\n%s", name, log)
		}
	}
	if !strings.Contains(coord.out.String(), "nats: worker joined") {
		t.Errorf("the coordinator's -v log does not show the worker joining:\n%s", coord.out.String())
	}
}

// sameVerdicts checks that two check results files list the same samples
// with the same results, but for samples that reached their wall-clock
// limit in one run and not in the other (on a loaded machine a sample near
// its limit can do either, through NATS or not); at most two such.
func sameVerdicts(t *testing.T, local, remote []byte) {
	t.Helper()
	a, b := bytes.Split(bytes.TrimSpace(local), []byte("\n")), bytes.Split(bytes.TrimSpace(remote), []byte("\n"))
	if len(local) == 0 || len(a) != len(b) {
		t.Fatalf("per-sample results: local %d lines, through NATS %d lines", len(a), len(b))
	}
	timing := 0
	for i := range a {
		if bytes.Equal(a[i], b[i]) {
			continue
		}
		var x, y struct {
			TaskID string `json:"task_id"`
			Result string `json:"result"`
		}
		if err := json.Unmarshal(a[i], &x); err != nil {
			t.Fatalf("local line %d: %v", i+1, err)
		}
		if err := json.Unmarshal(b[i], &y); err != nil {
			t.Fatalf("NATS line %d: %v", i+1, err)
		}
		if x.TaskID != y.TaskID || (x.Result != "timed out" && y.Result != "timed out") {
			t.Errorf("line %d differs: local %s %q, through NATS %s %q", i+1, x.TaskID, x.Result, y.TaskID, y.Result)
			continue
		}
		timing++
		t.Logf("line %d (%s) reached its time limit in one run only: local %q, through NATS %q", i+1, x.TaskID, x.Result, y.Result)
	}
	if timing > 2 {
		t.Errorf("%d samples differ by their time limit; want at most 2", timing)
	}
}

// TestCoordinatorNeedsTrust: a coordinator that trusts no worker key stops
// with a usage error that says how to trust one, and a trust file or the
// user's own worker key is enough.
func TestCoordinatorNeedsTrust(t *testing.T) {
	url := testBroker(t)
	samples, _ := slowSamples(t, 1)
	ownKey := filepath.Join(os.Getenv("XDG_DATA_HOME"), "ticoder", "worker.nk")
	pub, err := natsexec.WorkerPublicKey(ownKey)
	if err != nil {
		t.Fatal(err)
	}
	trustFile := filepath.Join(t.TempDir(), "trusted")
	if err := os.WriteFile(trustFile, []byte("# the lab's workers\n"+pub+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		home     string // $XDG_DATA_HOME: "own" keeps the test's, with its worker key
		trust    string
		wantCode int
	}{
		{"no key trusted", t.TempDir(), "", exitUsage},
		{"own worker key", "own", "", exitOK},
		{"trust file", t.TempDir(), trustFile, exitOK},
		{"missing trust file", t.TempDir(), filepath.Join(t.TempDir(), "none"), exitBadInput},
	}
	worker := startTicoder(t, "worker", "--nats", url, "--workers", "1")
	// The worker says in one line where it is connected, what it runs and
	// its key.
	worker.waitOutput(t, "signing results with key "+pub, time.Minute)
	if line := worker.out.String(); !strings.Contains(line, "connected to nats://") || !strings.Contains(line, "1 sandboxed worker, 1 job at a time") {
		t.Errorf("the worker's start line lacks where it is connected or what it runs:\n%s", line)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.home != "own" {
				t.Setenv("XDG_DATA_HOME", tc.home)
			}
			args := checkArgs(t, url, filepath.Join(t.TempDir(), "cache.db"), samples, filepath.Join(t.TempDir(), "out.jsonl"))
			if tc.trust != "" {
				args = append([]string{"--nats-trust", tc.trust}, args...)
			}
			var stdout, stderr bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			code := runMain(ctx, args, &stdout, &stderr)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.wantCode, stderr.String())
			}
			if tc.wantCode == exitUsage {
				for _, want := range []string{"trusts none", "--nats-trust", "ticoder worker --print-key"} {
					if !strings.Contains(stderr.String(), want) {
						t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
					}
				}
			}
		})
	}
}

// TestWorkerPrintKey: `ticoder worker --print-key` creates the key and
// prints its public key, the same each time; a key file other users may
// read is refused as bad input.
func TestWorkerPrintKey(t *testing.T) {
	key := filepath.Join(t.TempDir(), "worker.nk")
	var first string
	for i := range 2 {
		var stdout, stderr bytes.Buffer
		if code := runMain(context.Background(), []string{"worker", "--key", key, "--print-key"}, &stdout, &stderr); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		pub := strings.TrimSpace(stdout.String())
		if !strings.HasPrefix(pub, "U") || len(pub) != 56 || (i == 1 && pub != first) {
			t.Errorf("--print-key printed %q (first %q)", pub, first)
		}
		first = pub
	}
	if err := os.Chmod(key, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := runMain(context.Background(), []string{"worker", "--key", key, "--print-key"}, &stdout, &stderr); code != exitBadInput || !strings.Contains(stderr.String(), "chmod 600") {
		t.Errorf("a world-readable key: exit %d, stderr %q; want %d and how to fix it", code, stderr.String(), exitBadInput)
	}
}

// TestBrokerRefusesOpenListeners: `ticoder broker` exits with status 2 and
// says why when a listener beyond loopback lacks authentication or TLS.
func TestBrokerRefusesOpenListeners(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		config string
		args   []string
		want   string
	}{
		{"websocket", "listen: 127.0.0.1:-1\nwebsocket { port: -1, no_tls: true }\n", nil, "websocket on every interface"},
		{"http monitoring", "listen: 127.0.0.1:-1\nhttp: 0.0.0.0:8222\n", nil, "http monitoring on 0.0.0.0"},
		{"client without a token", "", []string{"--listen", "0.0.0.0:0"}, "client on 0.0.0.0"},
		{"client with a token, without TLS", "", []string{"--listen", "0.0.0.0:0", "--token", "s3cret"}, "has no TLS"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"broker", "--store", t.TempDir()}, tc.args...)
			if tc.config != "" {
				conf := filepath.Join(dir, fmt.Sprintf("nats-%d.conf", i))
				if err := os.WriteFile(conf, []byte(tc.config), 0o600); err != nil {
					t.Fatal(err)
				}
				args = append(args, "--config", conf)
			}
			var stdout, stderr bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if code := runMain(ctx, args, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want %d naming %q", code, stderr.String(), exitUsage, tc.want)
			}
		})
	}
}

// TestNATSNote: the progress label of a run through NATS never says that
// no job runs while jobs wait for results, nor counts workers before their
// first report.
func TestNATSNote(t *testing.T) {
	for _, tc := range []struct {
		workers, waiting int
		want             string
	}{
		{0, 0, "no worker status yet, 0 jobs in flight"},
		{0, 3, "no worker status yet, 3 jobs in flight"},
		{1, 1, "1 worker, 1 job in flight"},
		{2, 5, "2 workers, 5 jobs in flight"},
	} {
		if got := natsNote(tc.workers, tc.waiting); got != tc.want {
			t.Errorf("natsNote(%d, %d) = %q, want %q", tc.workers, tc.waiting, got, tc.want)
		}
	}
}
