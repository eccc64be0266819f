package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/testutil"
)

// docPages are the pages whose code blocks TestReadmeCommands covers.
var docPages = []string{"README.md", "docs/run.md", "docs/check.md"}

// docCommand is a line of a code block that runs ticoder.
type docCommand struct {
	where string   // PAGE:LINE
	key   string   // the line as the table names it (see docKey)
	args  []string // ticoder's arguments
	stdin string   // what a `printf '…' |` in front of it writes
	pipe  string   // the command in front of a `|`, if any
}

// The commands of the NATS example, run together as one.
const (
	docBroker = "ticoder broker"
	docWorker = "ticoder worker --nats nats://127.0.0.1:4222 --workers 4"
	docNATS   = "ticoder check --nats nats://127.0.0.1:4222 --nats-trust trusted-workers --dataset humaneval-noexamples --samples codes.jsonl"
	// docNATSURL is the broker's address in the example.
	docNATSURL = "nats://127.0.0.1:4222"
)

// docCase says what the test does with a command of the docs: it runs it,
// or model says why it cannot (the model or other program it needs).
type docCase struct {
	cmd   string // the command line, as docKey writes it
	model string
	// partOf names the case that runs this command along with its own.
	partOf string
	// full lists the files of the full benchmark data the command needs;
	// without it the command runs on the fixtures ($TICODER_DATA is the
	// fixtures' directory).
	full []string
	// bring lists the files the user brings (see docFiles), made in the
	// working directory from the fixtures.
	bring []string
	// extra are arguments only the test adds, each with its reason.
	extra []string
	// swap replaces an argument of the docs by the test's own.
	swap map[string]string
	// stdin, if set, returns what the user types (else a printf in front
	// of the command gives it, else stdin is empty).
	stdin func(t *testing.T) string
	want  []string // in stdout or stderr
	// files are globs that must match in the working directory after
	// the run.
	files []string
	// needs, if set, skips the test with its reason when the machine
	// lacks what the command needs.
	needs func(t *testing.T)
	// run, if set, runs the command instead of the steps above.
	run func(t *testing.T, c docCommand, all map[string]docCommand)
}

var docCases = []docCase{
	// README.md
	{cmd: "ticoder run --spec src/shop/pricing.py::apply_discount --model ollama:qwen2.5-coder:7b --write",
		model: "Ollama serving qwen2.5-coder:7b (TestReadmeProjectFlow runs it with a fake model)"},
	{cmd: "ticoder run --demo", stdin: demoAnswers("text_match"),
		want:  []string{"Checked in the sandbox: all", "text_match.py"},
		files: []string{"share/ticoder/runs/*/text_match.py", "share/ticoder/runs/*/test_text_match.py"}},
	{cmd: "ticoder run --spec stub.py --model ollama:qwen2.5-coder:7b", model: "Ollama serving qwen2.5-coder:7b"},
	{cmd: "ticoder serve --demo", run: runDocServe},
	{cmd: "claude mcp add ticoder -- ticoder mcp",
		model: "Claude Code, which registers the server and brings the model (TestMCPBinary runs `ticoder mcp`)"},
	{cmd: "ticoder check --dataset humaneval --samples samples.jsonl -k 1,10 --timeout 3s --json", bring: []string{"samples.jsonl"},
		want: []string{`"pass@1"`, `"pass@10"`}},
	{cmd: "ticoder eval --dataset humaneval-noexamples --model replay:$TICODER_DATA/samples/humaneval-codegen16b --out runs/he",
		// The fixtures hold recordings of 5 of their 10 problems, and eval
		// fails a problem it has no recording of; with the default 100
		// codes and 100 tests a problem takes minutes on 2 cores, so the
		// test runs one problem with 20 of each.
		extra: []string{"--problems", "HumanEval/0", "--codes", "20", "--tests", "20"},
		want:  []string{"| infogain | PassFail |", "results in runs/he"},
		files: []string{"runs/he/summary.md", "runs/he/results.jsonl"}},
	{cmd: "ticoder check --dataset humanevalplus --samples samples.jsonl", bring: []string{"plus:samples.jsonl"},
		want: []string{"base", "plus", "pass@1"}},
	{cmd: "ticoder qe score --dataset humaneval --samples samples.jsonl --estimator agree --check", bring: []string{"samples.jsonl"},
		want: []string{"pass@1"}},
	{cmd: docBroker, partOf: docNATS},
	{cmd: docWorker, partOf: docNATS},
	{cmd: docNATS, run: runDocNATS},

	// docs/run.md
	{cmd: "ticoder run --demo list", want: []string{"text_match", "median", "min_cost"}},
	// One answer, then stdin ends: run writes the top-ranked candidate.
	{cmd: "ticoder run --demo median --mode output", stdin: func(*testing.T) string { return "y\n" },
		want: []string{"median.py"}, files: []string{"share/ticoder/runs/*/median.py"}},
	// One answer, then stdin ends: run writes the top-ranked candidate.
	{cmd: "ticoder run --demo min_cost", needs: needJDK, stdin: func(*testing.T) string { return "y\n" },
		want: []string{"MinCost.java"}, files: []string{"share/ticoder/runs/*/MinCost.java", "share/ticoder/runs/*/MinCostTest.java"}},
	{cmd: `ticoder run --prompt "Return the n-th Fibonacci number" --signature "def fib(n: int) -> int" --model openai:gpt-4o-mini`,
		model: "OpenAI's gpt-4o-mini (OPENAI_API_KEY)"},
	{cmd: "ticoder run --task humaneval-noexamples/HumanEval/12 --model replay:$TICODER_DATA/samples/humaneval-codegen16b --style completion",
		// HumanEval/12 is not among the fixtures' problems.
		full:  []string{"humaneval/HumanEval-noexamples.jsonl", testutil.Recorded + "/codes.jsonl", testutil.Recorded + "/tests.jsonl"},
		stdin: func(*testing.T) string { return "y\n" }, files: []string{"share/ticoder/runs/*/longest.py"}},
	{cmd: `printf 'y\ny\ny\n\n' | ticoder run --demo text_match --out /tmp/x`,
		// The run writes into the test's directory, not /tmp/x.
		swap:  map[string]string{"/tmp/x": "x"},
		files: []string{"x/text_match.py", "x/test_text_match.py"}},
	{cmd: "ticoder run --spec src/shop/pricing.py::apply_discount --model ollama:qwen2.5-coder:7b --out /tmp/x",
		model: "Ollama serving qwen2.5-coder:7b (TestRunProjectOut runs the project flow with a fake model)"},
	{cmd: "ticoder run --spec app/util.py::slugify --project . --python ~/.venvs/app/bin/python --mask 'fixtures/*.json' --model …",
		model: "a model of the user's choice, and the user's project app/"},

	// docs/check.md
	{cmd: "ticoder check --dataset humaneval-noexamples --samples $TICODER_DATA/samples/humaneval-codegen16b/codes.jsonl",
		want: []string{"pass@1"}},
	{cmd: "ticoder check --dataset mbppplus --samples solutions.jsonl --json --test-details", bring: []string{"plus:solutions.jsonl"},
		want: []string{`"plus"`, `"base"`, `"pass@1"`}},
}

// TestReadmeCommands runs every ticoder command of the code blocks of the
// README (and of docs/run.md and docs/check.md) that needs no model, on the
// fixtures, through the same entry point as the program; every command
// there must have a case in docCases, so that a new one is run (or says
// which model it needs).
func TestReadmeCommands(t *testing.T) {
	root := testutil.RepoRoot(t)
	cmds := map[string]docCommand{}
	var order []string
	for _, page := range docPages {
		for _, c := range docCommands(t, root, page) {
			if _, ok := cmds[c.key]; !ok {
				order = append(order, c.key)
				cmds[c.key] = c
			}
		}
	}
	cases := map[string]docCase{}
	for _, dc := range docCases {
		if _, dup := cases[dc.cmd]; dup {
			t.Errorf("docCases has %q twice", dc.cmd)
		}
		cases[dc.cmd] = dc
		if _, ok := cmds[dc.cmd]; !ok {
			t.Errorf("docCases has %q, which no code block of %v shows any more", dc.cmd, docPages)
		}
	}
	for _, key := range order {
		c := cmds[key]
		dc, ok := cases[key]
		if !ok {
			t.Errorf("%s: %q has no case in docCases: add one that runs it, or that says which model it needs", c.where, key)
			continue
		}
		t.Run(key, func(t *testing.T) {
			switch {
			case dc.model != "":
				t.Logf("%s: not run: needs %s", c.where, dc.model)
			case dc.partOf != "":
				if _, ok := cases[dc.partOf]; !ok {
					t.Fatalf("runs as part of %q, which has no case", dc.partOf)
				}
				t.Logf("%s: runs as part of %q", c.where, dc.partOf)
			case dc.run != nil:
				dc.run(t, c, cmds)
			default:
				dc.runCommand(t, c)
			}
		})
	}
}

// runCommand runs c as the user would, in a fresh working directory.
func (dc docCase) runCommand(t *testing.T, c docCommand) {
	data := testutil.Fixtures(t)
	if dc.full != nil {
		data = testutil.FullData(t, dc.full...)
	}
	if dc.needs != nil {
		dc.needs(t)
	}
	docEnv(t, data)
	for _, f := range dc.bring {
		_, name, _ := strings.Cut(f, ":") // "KIND:NAME": another kind of NAME
		if name == "" {
			name = f
		}
		docFiles[f](t, name)
	}
	if c.pipe != "" && !strings.HasPrefix(c.pipe, "printf ") {
		t.Fatalf("cannot run %q in front of ticoder", c.pipe)
	}
	stdin := c.stdin
	if dc.stdin != nil {
		stdin = dc.stdin(t)
	}
	args := append(dc.args(c), dc.extra...)
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if code := runMainIn(ctx, args, strings.NewReader(stdin), &stdout, &stderr); code != exitOK {
		t.Fatalf("ticoder %s: exit status %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	all := stdout.String() + stderr.String()
	for _, w := range dc.want {
		if !strings.Contains(all, w) {
			t.Errorf("output lacks %q:\n%s", w, all)
		}
	}
	for _, g := range dc.files {
		if m, _ := filepath.Glob(g); len(m) == 0 {
			t.Errorf("no file %s after the run; output:\n%s", g, all)
		}
	}
}

// args returns c's arguments with $TICODER_DATA expanded and dc's swaps
// made.
func (dc docCase) args(c docCommand) []string {
	var args []string
	for _, a := range c.args {
		a = os.Expand(a, func(v string) string {
			if v == "TICODER_DATA" {
				return os.Getenv(v)
			}
			return "$" + v
		})
		if s, ok := dc.swap[a]; ok {
			a = s
		}
		args = append(args, a)
	}
	return args
}

// docEnv gives the test a fresh working directory as the user's and data
// as the data directory ($TICODER_DATA), with a fresh cache and ticoder's
// own files ($XDG_DATA_HOME) in share/, and no NATS from the environment.
func docEnv(t *testing.T, data string) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("TICODER_DATA", data)
	t.Setenv("TICODER_CACHE", filepath.Join(dir, "cache.db"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "share"))
	for _, v := range []string{"TICODER_NATS", "TICODER_NATS_TOKEN", "TICODER_NATS_WORKER_TOKEN", "TICODER_NATS_TRUST"} {
		t.Setenv(v, "")
	}
	return dir
}

// docFiles make the files the docs' commands expect the user to bring,
// from the fixtures' recorded samples.
var docFiles = map[string]func(t *testing.T, name string){
	// samples.jsonl: {task_id, completion} rows, the first 10 recorded
	// samples of each problem (enough for -k 1,10).
	"samples.jsonl": func(t *testing.T, name string) {
		var lines []string
		for i, row := range fixtureCodes(t) {
			for _, s := range row.Samples[:10] {
				lines = append(lines, jsonLine(t, map[string]string{"task_id": testutil.FixtureTasks[testutil.Recorded+"/codes.jsonl"][i], "completion": s}))
			}
		}
		writeDocFile(t, name, strings.Join(lines, "\n")+"\n")
	},
	// plus:samples.jsonl: {task_id, completion} rows for the HumanEval+
	// fixture, each problem's canonical solution and a body that returns
	// None.
	"plus:samples.jsonl": func(t *testing.T, name string) {
		writeDocFile(t, name, docPlusSamples(t, "humanevalplus/HumanEvalPlus.jsonl.gz", "completion"))
	},
	// plus:solutions.jsonl: {task_id, solution} rows for the MBPP+
	// fixture, likewise.
	"plus:solutions.jsonl": func(t *testing.T, name string) {
		writeDocFile(t, name, docPlusSamples(t, "mbppplus/MbppPlus.jsonl.gz", "solution"))
	},
	// codes.jsonl: CodeT's {prompt, samples} rows, the recorded ones cut
	// to 10 samples each.
	"codes.jsonl": func(t *testing.T, name string) {
		var lines []string
		for _, row := range fixtureCodes(t) {
			row.Samples = row.Samples[:10]
			lines = append(lines, jsonLine(t, row))
		}
		writeDocFile(t, name, strings.Join(lines, "\n")+"\n")
	},
}

// docPlusSamples returns two samples per row of an evalplus fixture file:
// the canonical solution (as a body or a whole program, field), and one
// that returns None.
func docPlusSamples(t *testing.T, file, field string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(testutil.Fixtures(t), filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		b := sc.Bytes()
		if fixed, ok := dataset.PythonConstants(b); ok {
			b = fixed // MBPP+'s inputs hold Infinity
		}
		var row struct {
			TaskID    string `json:"task_id"`
			Prompt    string `json:"prompt"`
			Entry     string `json:"entry_point"`
			Canonical string `json:"canonical_solution"`
		}
		if err := json.Unmarshal(b, &row); err != nil {
			t.Fatal(err)
		}
		wrong := "    return None\n"
		if field == "solution" {
			wrong = "def " + row.Entry + "(*args):\n    return None\n"
		}
		for _, code := range []string{row.Canonical, wrong} {
			lines = append(lines, jsonLine(t, map[string]string{"task_id": row.TaskID, field: code}))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n") + "\n"
}

// codeTRow is a row of a CodeT samples file.
type codeTRow struct {
	Prompt  string   `json:"prompt"`
	Samples []string `json:"samples"`
}

// fixtureCodes reads the fixtures' recorded code samples.
func fixtureCodes(t *testing.T) []codeTRow {
	t.Helper()
	f, err := os.Open(filepath.Join(testutil.Fixtures(t), testutil.Recorded, "codes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []codeTRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r codeTRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Samples) < 10 {
			t.Fatalf("a recorded row has %d samples, want 10 or more", len(r.Samples))
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func writeDocFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// demoAnswers returns the answers a user who knows what demo name should
// do types, then Enter to write the top candidate.
func demoAnswers(name string) func(t *testing.T) string {
	return func(t *testing.T) string {
		p, err := demo.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		lines, _ := labelLines(t, p)
		return strings.Join(lines, "\n") + "\n\n"
	}
}

// needJDK skips the test without a JDK, as the Java tests do.
func needJDK(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
}

// runDocServe runs `serve --demo` on a free port (the docs' 8080 may be
// taken on the machine), gets the start page and stops it as Ctrl-C does.
func runDocServe(t *testing.T, c docCommand, _ map[string]docCommand) {
	docEnv(t, testutil.Fixtures(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	args := append(slices.Clone(c.args), "--addr", "127.0.0.1:0")
	go func() { done <- runMainIn(ctx, args, strings.NewReader(""), &stdout, &stderr) }()
	url := waitDocLine(t, &stderr, done, regexp.MustCompile(`serving on (\S+)`))
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<title>ticoder</title>") {
		t.Errorf("GET %s: %s, %v:\n%.300s", url, resp.Status, err, body)
	}
	cancel()
	if code := testutil.Receive(t, done, time.Minute, "serve to stop"); code != exitOK {
		t.Errorf("serve stopped with exit status %d:\n%s", code, stderr.String())
	}
}

// waitDocLine waits until out matches re and returns its first group; it
// fails the test if the command ends first or a minute passes.
func waitDocLine(t *testing.T, out *syncBuffer, done <-chan int, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("ended with exit status %d before writing %v:\n%s", code, re, out.String())
		case <-deadline:
			t.Fatalf("wrote no %v in a minute:\n%s", re, out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// runDocNATS runs the docs' NATS example: the broker and a worker as
// processes of their own, as on machine A, and check through them with
// the worker's key in trusted-workers.
func runDocNATS(t *testing.T, c docCommand, all map[string]docCommand) {
	docEnv(t, testutil.Fixtures(t))
	docFiles["codes.jsonl"](t, "codes.jsonl")
	// The broker listens on a free port: the docs' 4222 may be taken on
	// the machine.
	broker := startTicoder(t, append(slices.Clone(all[docBroker].args), "--listen", "127.0.0.1:0")...)
	broker.waitOutput(t, "connect with --nats", time.Minute)
	url := regexp.MustCompile(`connect with --nats (nats://[^\s;]+)`).FindStringSubmatch(broker.out.String())[1]
	swap := map[string]string{docNATSURL: url}
	worker := startTicoder(t, docCase{swap: swap}.args(all[docWorker])...)
	worker.waitOutput(t, "signing results with key", time.Minute)
	// trusted-workers holds the key `ticoder worker --print-key` prints.
	var key, stderr bytes.Buffer
	if code := runMain(context.Background(), []string{"worker", "--print-key"}, &key, &stderr); code != exitOK {
		t.Fatalf("worker --print-key: exit status %d:\n%s", code, stderr.String())
	}
	writeDocFile(t, "trusted-workers", key.String())
	var stdout bytes.Buffer
	stderr.Reset()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := docCase{swap: swap}.args(c)
	if code := runMainIn(ctx, args, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("ticoder %s: exit status %d\nstdout:\n%s\nstderr:\n%s\nworker:\n%s", strings.Join(args, " "), code, stdout.String(), stderr.String(), worker.out.String())
	}
	if !strings.Contains(stdout.String()+stderr.String(), "pass@1") {
		t.Errorf("check through NATS gives no pass@1:\n%s\n%s", stdout.String(), stderr.String())
	}
}

// docCommands returns the ticoder commands of page's fenced sh blocks and
// of its plain blocks that are not a recorded session (a plain block with
// a line `$ …` shows one: its lines are not run).
func docCommands(t *testing.T, root, page string) []docCommand {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, page))
	if err != nil {
		t.Fatal(err)
	}
	fence := regexp.MustCompile("^\\s*```(\\S*)\\s*$")
	var cmds []docCommand
	var block []string
	start, inBlock, lang := 0, false, ""
	for i, line := range strings.Split(string(b), "\n") {
		m := fence.FindStringSubmatch(line)
		switch {
		case m != nil && !inBlock:
			inBlock, lang, block, start = true, m[1], nil, i+2
		case m != nil && m[1] == "":
			inBlock = false
			if lang == "sh" || lang == "" && !slices.ContainsFunc(block, func(l string) bool { return strings.HasPrefix(l, "$ ") }) {
				for j, l := range block {
					if c, ok := parseDocCommand(t, l); ok {
						c.where = page + ":" + strconv.Itoa(start+j)
						cmds = append(cmds, c)
					}
				}
			}
		case inBlock:
			block = append(block, line)
		}
	}
	return cmds
}

// parseDocCommand reads a line of a code block; ok is false unless it runs
// ticoder (`ticoder …`, `go run ./cmd/ticoder …`, `… | ticoder …` or
// `… -- ticoder …`).
func parseDocCommand(t *testing.T, line string) (docCommand, bool) {
	t.Helper()
	text, words := splitShell(t, line)
	if len(words) == 0 {
		return docCommand{}, false
	}
	at := -1
	for i, w := range words {
		if w == "ticoder" && (i == 0 || words[i-1] == "|" || words[i-1] == "--") {
			at = i
			break
		}
		if i == 0 && len(words) > 2 && w == "go" && words[1] == "run" && words[2] == "./cmd/ticoder" {
			at = 2
			text = "ticoder" + strings.TrimPrefix(strings.TrimPrefix(text, "go run"), " ./cmd/ticoder")
			break
		}
	}
	if at < 0 {
		return docCommand{}, false
	}
	c := docCommand{key: docKey(text), args: words[at+1:]}
	if at > 0 && words[at-1] == "|" {
		c.pipe = strings.Join(words[:at-1], " ")
		if words[0] == "printf" && at == 3 {
			c.stdin = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(words[1])
		}
	}
	return c, true
}

// docKey normalises a command line: one space between words, and
// $TICODER_DATA however it is spelt.
func docKey(s string) string {
	s = strings.ReplaceAll(s, "${TICODER_DATA}", "$TICODER_DATA")
	return strings.Join(strings.Fields(s), " ")
}

// splitShell splits a line of sh into its words as sh would (quotes,
// backslashes; no expansion), without a trailing # comment, and returns
// the line without the comment too.
func splitShell(t *testing.T, line string) (string, []string) {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord, quote, end := false, byte(0), len(line)
	// Every byte sh treats specially is ASCII, which never occurs inside
	// the UTF-8 encoding of another character.
	for i := 0; i < len(line) && end == len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case quote == '"':
			if c == '"' {
				quote = 0
			} else if c == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
				i++
				w.WriteByte(line[i])
			} else {
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			end = i
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		t.Fatalf("unterminated quote in %q", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return strings.TrimSpace(line[:end]), words
}

// TestReadmeCommandsParse: which lines of a page's code blocks count as
// ticoder commands, and how they are keyed and split.
func TestReadmeCommandsParse(t *testing.T) {
	page := "text\n```sh\n" +
		"cd examples/shop                # not ticoder\n" +
		"go run ./cmd/ticoder run --demo   # the demo\n" +
		"                                # a comment alone\n" +
		"ticoder run --prompt \"a b\"  --model 'x#y' # comment\n" +
		"printf 'y\\nn\\n\\n' | ticoder run --demo text_match\n" +
		"claude mcp add ticoder -- ticoder mcp\n" +
		"ticoder eval --model replay:${TICODER_DATA}/s\n" +
		"```\n\n```\n$ ticoder run --spec a.py\nticoder: output\n```\n\n" +
		"```\nticoder data list\n```\n\n```json\n{\"ticoder\": 1}\n```\n"
	dir := t.TempDir()
	writeDocFile(t, filepath.Join(dir, "page.md"), page)
	got := docCommands(t, dir, "page.md")
	want := []docCommand{
		{where: "page.md:4", key: "ticoder run --demo", args: []string{"run", "--demo"}},
		{where: "page.md:6", key: `ticoder run --prompt "a b" --model 'x#y'`, args: []string{"run", "--prompt", "a b", "--model", "x#y"}},
		{where: "page.md:7", key: `printf 'y\nn\n\n' | ticoder run --demo text_match`, args: []string{"run", "--demo", "text_match"},
			stdin: "y\nn\n\n", pipe: `printf y\nn\n\n`},
		{where: "page.md:8", key: "claude mcp add ticoder -- ticoder mcp", args: []string{"mcp"}},
		{where: "page.md:9", key: "ticoder eval --model replay:$TICODER_DATA/s", args: []string{"eval", "--model", "replay:${TICODER_DATA}/s"}},
		{where: "page.md:18", key: "ticoder data list", args: []string{"data", "list"}},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(docCommand{})); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}
