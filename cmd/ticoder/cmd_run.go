package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/project"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/ui"
)

// interactFlags are the session flags `run` and `serve` share.
type interactFlags struct {
	model        string
	style        string
	mode         string
	codes        int
	tests        int
	maxQuestions int
	selectBy     string
	questions    string
	rankBy       string
	timeout      time.Duration
	// requestTimeout is --request-timeout; waiting records the model's
	// requests without an answer (builder sets it).
	requestTimeout time.Duration
	waiting        *llm.Waiting
	regenerate     int
}

// sessionFlags are the interactFlags that shape a session when it starts.
var sessionFlags = []string{"model", "style", "mode", "codes", "tests", "max-questions", "select", "rank", "questions", "timeout", "regenerate"}

func (f *interactFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.model, "model", "", "model that writes candidates and tests: openai:NAME, ollama:NAME, vllm:NAME@URL, azure:DEPLOYMENT, replay:DIR, ... (not needed for --demo)")
	fs.StringVar(&f.style, "style", "chat", "prompt style: chat (instruction models) or completion (base models)")
	fs.StringVar(&f.mode, "mode", "passfail", "answers: passfail (yes / no / don't know) or output (also: the right value)")
	fs.IntVar(&f.codes, "codes", interact.DefaultSamples, "candidate programs to ask the model for")
	fs.IntVar(&f.tests, "tests", interact.DefaultSamples, "test samples to ask the model for")
	fs.IntVar(&f.maxQuestions, "max-questions", 0, "stop after this many answers (0: until the candidates are told apart)")
	fs.StringVar(&f.selectBy, "select", "infogain", "test selection: "+strings.Join(rank.Selectors()[:3], ", "))
	fs.StringVar(&f.rankBy, "rank", "codet", "code ranking: "+strings.Join(rank.Rankers(), ", "))
	fs.StringVar(&f.questions, "questions", "both", "what to ask about: tests (the generated tests), inputs (inputs where the candidates disagree, with their values), or both")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second, "time limit of one test on one candidate")
	addRequestTimeout(fs, &f.requestTimeout)
	fs.IntVar(&f.regenerate, "regenerate", interact.DefaultRegenerate, "when no candidate agrees with all your answers, ask the model for new candidates with your approved tests, at most this many rounds per session (0: never)")
}

// options checks the flags and returns the session options.
func (f *interactFlags) options() (interact.Options, error) {
	mode, err := rank.ParseMode(f.mode)
	if err != nil {
		return interact.Options{}, usageError{err}
	}
	if f.codes < 0 || f.tests < 0 || f.maxQuestions < 0 || f.regenerate < 0 {
		return interact.Options{}, usagef("--codes, --tests, --max-questions and --regenerate must not be negative")
	}
	sel, err := rank.ParseSelector(f.selectBy)
	if err != nil {
		return interact.Options{}, usageError{err}
	}
	if _, ok := sel.(rank.Oracle); ok {
		// The oracle picks by the reference solution's answers: eval has
		// one, an interactive session has only the user.
		return interact.Options{}, usagef("--select %s: the oracle needs a reference solution, which only eval has; use %s", f.selectBy, strings.Join(rank.Selectors()[:3], ", "))
	}
	if _, err := rank.ParseRanker(f.rankBy); err != nil {
		return interact.Options{}, usageError{err}
	}
	questions, err := session.ParseQuestions(f.questions)
	if err != nil {
		return interact.Options{}, usageError{fmt.Errorf("--questions: %w", err)}
	}
	return interact.Options{Mode: mode, Codes: f.codes, Tests: f.tests, MaxQuestions: f.maxQuestions, Select: f.selectBy, Rank: f.rankBy, Questions: questions, Regenerate: f.regenerate}, nil
}

// builder returns the session builder, with the model when --model is set.
func (f *interactFlags) builder(g *globalOptions, eng *engine) (*interact.Builder, error) {
	b := &interact.Builder{Runner: eng.Pool, DataDir: dataset.DataDir(g.dataDir), Timeout: f.timeout, Runners: eng.runners(context.Background(), g)}
	if f.model == "" {
		return b, nil
	}
	style, err := llm.ParseStyle(f.style)
	if err != nil {
		return nil, usageError{err}
	}
	f.waiting = &llm.Waiting{}
	mo := modelOptions(f.requestTimeout, f.waiting)
	mo.Style, mo.Cache = style, eng.DB
	prov, err := llm.OpenString(f.model, mo)
	if err != nil {
		return nil, err // a selector that is no model is a usage error, a missing replay directory bad input
	}
	b.Generator = &interact.ModelGenerator{Provider: prov, Caller: eng.Pool}
	return b, nil
}

// open checks the flags, opens the execution engine (the caller closes
// it) and returns the session options and the builder on it.
func (f *interactFlags) open(ctx context.Context, g *globalOptions) (interact.Options, *engine, *interact.Builder, error) {
	opts, err := f.options()
	if err != nil {
		return opts, nil, nil, err
	}
	eng, err := openEngine(ctx, g, 0)
	if err != nil {
		return opts, nil, nil, err
	}
	b, err := f.builder(g, eng)
	if err != nil {
		eng.Close()
		return opts, nil, nil, err
	}
	return opts, eng, b, nil
}

// runOptions are the flags of `ticoder run`.
type runOptions struct {
	demo      string
	spec      string
	lang      string
	prompt    string
	signature string
	task      string
	resume    string
	out       string
	force     bool
	plain     bool
	noColor   bool
	flags     interactFlags
	// proj and write are --project, --python, --mask and --write, for
	// --spec FILE::NAME; project is that session's project once resolved.
	proj    projectFlags
	write   bool
	project *projectRun
	// promptSet and signatureSet report that --prompt and --signature were
	// given (perhaps empty).
	promptSet, signatureSet bool
	// sessionSet lists the sessionFlags given, which --resume refuses.
	sessionSet []string
}

func newRunCommand(g *globalOptions) *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run [--demo [NAME] | --spec FILE | --prompt TEXT --signature SIG | --task DATASET/ID]",
		Short: "Clarify what a function should do by answering a few tests, in the terminal",
		Long: `run asks a model for candidate implementations and tests of a function (or
takes them from a built-in demo), runs every test on every candidate in the
sandbox, and asks you, one at a time, whether the test that best separates the
candidates matches what you want:

    text_match("aa_bb_cc") == True ?

Keys: y yes · n no · d don't know / invalid input · o give the right value
(--mode output) · u undo · q stop asking. Each answer prunes the candidates;
when no candidate agrees with all your answers, the closest remain and (with
--model) the model is asked for new candidates with your approved tests in
the prompt, at most --regenerate rounds. At the end you choose among the
ranked ones, and run writes NAME.py (the code)
and test_NAME.py (the tests you approved, as pytest functions), after checking
in the sandbox that the tests pass against the code. They go to --out, or by
default to a new directory per run, NAME-DATE-TIME under
$XDG_DATA_HOME/ticoder/runs (~/.local/share/ticoder/runs), printed at the end.

Without a terminal (or with --plain) the questions are plain prompts, one
answer per line, so the flow can be scripted. If stdin ends before the first
answer nothing is written; if it ends later, the top-ranked candidate is
written and run says so.

Your answers are kept in a session file (under $XDG_DATA_HOME/ticoder/sessions)
while you answer; if you quit without writing (esc twice, or q then y in plain
mode) or press Ctrl-C, run prints the file's name and --resume FILE takes up
where you left off. The file is removed once the code is written.

EXIT STATUS of run: 0 the code and tests were written; 1 nothing was written
(you quit, no candidate remained, stdin ended before the first answer) or an
error; 2 a usage error; 130 interrupted (Ctrl-C).`,
		Example: `  ticoder run --demo                      # the built-in demo, no model needed
  ticoder run --demo median --mode output
  ticoder run --demo list                 # list the demos
  printf 'y\ny\ny\n\n' | ticoder run --demo text_match --out /tmp/x   # scripted: one answer per line
  ticoder run --resume ~/.local/share/ticoder/sessions/text_match-20261130-201500.json
  ticoder run --spec stub.py --model ollama:qwen2.5-coder:7b
  ticoder run --prompt "Return the n-th Fibonacci number" --signature "def fib(n: int) -> int" --model openai:gpt-4o-mini
  ticoder run --task humaneval-noexamples/HumanEval/12 --model replay:$TICODER_DATA/samples/humaneval-codegen16b`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if o.demo == "" {
					return usagef("run: unexpected argument %q (a demo name goes after --demo)", args[0])
				}
				o.demo = args[0]
			}
			o.promptSet, o.signatureSet = cmd.Flags().Changed("prompt"), cmd.Flags().Changed("signature")
			for _, name := range sessionFlags {
				if cmd.Flags().Changed(name) {
					o.sessionSet = append(o.sessionSet, "--"+name)
				}
			}
			return runRun(cmd.Context(), g, o, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.demo, "demo", "", "use a built-in demo problem (default text_match; --demo list lists them)")
	f.Lookup("demo").NoOptDefVal = demo.Names()[0]
	f.StringVar(&o.spec, "spec", "", "FILE::NAME, a function in a module of your project (its def line, decorators and docstring are the spec; the module is its context) or FILE.java::Class.method, a static method of a Maven or Gradle project's class, or a stub file: Python (imports and helpers, the def line and a docstring) or Java (NAME.java: a class with the static method to write and its Javadoc)")
	f.StringVar(&o.lang, "lang", "", "language of --spec: python or java (default: from the file name, .java is Java)")
	f.StringVar(&o.prompt, "prompt", "", "what the function should do, in words (with --signature)")
	f.StringVar(&o.signature, "signature", "", `the function's def line, e.g. "def f(x: int) -> int"`)
	f.StringVar(&o.task, "task", "", "a dataset problem as DATASET/ID, e.g. humaneval-noexamples/HumanEval/12")
	f.StringVar(&o.resume, "resume", "", "take up a session file that an earlier run kept when it was quit or interrupted")
	f.StringVar(&o.out, "out", "", "directory to write NAME.py and test_NAME.py to (default: a new directory per run under $XDG_DATA_HOME/ticoder/runs)")
	f.BoolVar(&o.force, "force", false, "overwrite NAME.py and test_NAME.py in --out if they exist")
	f.BoolVar(&o.write, "write", false, "with --spec FILE::NAME: put the chosen function into FILE in place and add the approved tests to the project's tests (tests/test_MODULE.py; Java: src/test/java/PACKAGE/CLASSGeneratedTest.java), then run them once in the sandbox")
	o.proj.add(f)
	f.BoolVar(&o.plain, "plain", false, "plain prompts even on a terminal")
	f.BoolVar(&o.noColor, "no-color", os.Getenv("NO_COLOR") != "", "no syntax highlighting")
	o.flags.add(f)
	return cmd
}

// isTerminal reports whether v is a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// checkPrompt checks --prompt and --signature, which go together and must
// not be blank (a blank prompt would be sent to the model).
func (o *runOptions) checkPrompt() error {
	const example = `e.g. --prompt "Return the n-th Fibonacci number" --signature "def fib(n: int) -> int"`
	switch {
	case o.promptSet && strings.TrimSpace(o.prompt) == "":
		return usagef("run: --prompt is empty: say in words what the function should do, %s", example)
	case o.signatureSet && strings.TrimSpace(o.signature) == "":
		return usagef("run: --signature is empty: give the function's def line, %s", example)
	case o.signatureSet && !o.promptSet:
		return usagef("run: --signature needs --prompt too (what the function should do, in words), %s", example)
	}
	return nil
}

// runRun prepares the session, asks the questions and writes the result.
func runRun(ctx context.Context, g *globalOptions, o *runOptions, in io.Reader, out, errw io.Writer) error {
	if o.demo == "list" {
		ps, err := demo.List()
		if err != nil {
			return err
		}
		for _, p := range ps {
			fmt.Fprintf(out, "%-24s %s\n", p.Name, p.Summary)
		}
		return nil
	}
	opts, err := o.flags.options()
	if err != nil {
		return err
	}
	if err := o.checkPrompt(); err != nil {
		return err
	}
	src := interact.Source{Demo: o.demo, Prompt: o.prompt, Signature: o.signature, Task: o.task, Language: o.lang}
	if o.resume != "" {
		if o.demo != "" || o.spec != "" || o.promptSet || o.task != "" {
			return usagef("run: --resume takes up a kept session; it goes without --demo, --spec, --prompt or --task")
		}
		if len(o.sessionSet) > 0 {
			return usagef("run: --resume takes up the session as it was kept (its model, mode, selection, ranking and limits): %s cannot change it", strings.Join(o.sessionSet, ", "))
		}
		return resumeRun(ctx, g, o, in, out, errw)
	}
	if target, ok, err := project.ParseTarget(o.spec); err != nil || ok {
		if err != nil {
			return err
		}
		if o.demo != "" || o.promptSet || o.task != "" {
			return usagef("run: --spec FILE::NAME goes without --demo, --prompt or --task")
		}
		return runProject(ctx, g, o, opts, target, in, out, errw)
	}
	if o.write || o.proj.set() {
		return usagef("run: --write, --project, --python, --classpath and --mask go with --spec FILE::NAME (a function in your project's module)")
	}
	if o.spec != "" {
		data, err := os.ReadFile(o.spec)
		if err != nil {
			return fmt.Errorf("read the spec file: %w", err)
		}
		src.Spec, src.SpecName = string(data), o.spec
		if src.Language == "" && strings.EqualFold(filepath.Ext(o.spec), ".java") {
			src.Language = "java"
		}
	}
	if o.lang != "" && !slices.Contains(interact.Languages(), strings.ToLower(o.lang)) {
		return usagef("run: --lang %q: use one of %s", o.lang, strings.Join(interact.Languages(), ", "))
	}
	if _, err := src.Kind(); err != nil {
		return usageError{fmt.Errorf("run: %w (see ticoder run --help)", err)}
	}
	if o.demo != "" && o.flags.model != "" {
		fmt.Fprintln(errw, "ticoder: --demo uses the built-in candidates; --model is not used")
	}
	eng, err := openEngine(ctx, g, 0)
	if err != nil {
		return err
	}
	defer eng.Close()
	b, err := o.flags.builder(g, eng)
	if b != nil {
		b.DatasetFiles = true // the terminal user may point at their own files
	}
	if err != nil {
		return err
	}
	return buildAndAsk(ctx, o, b, src, opts, in, out, errw)
}

// buildAndAsk prepares the session for src, asks its questions and writes
// the result.
func buildAndAsk(ctx context.Context, o *runOptions, b *interact.Builder, src interact.Source, opts interact.Options, in io.Reader, out, errw io.Writer) error {
	var rep progress.Reporter = progress.Nop{}
	if isTerminal(errw) {
		// The questions replace the bar: it must not stay above them, nor
		// above what is printed when the terminal UI ends.
		rep = progress.NewTransientBar(errw)
	}
	stopWatch := watchModel(o.flags.waiting, rep, errw)
	prep, err := b.Build(ctx, src, opts, rep)
	stopWatch()
	if err != nil {
		return err
	}
	conv, err := interact.Start(prep, b.RunnerFor(prep.Task.Language))
	if err != nil {
		return err
	}
	conv.UseBuilder(b, rep)
	return askAndWrite(ctx, o, conv, "", in, out, errw)
}

// resumeRun takes up the session file o.resume.
func resumeRun(ctx context.Context, g *globalOptions, o *runOptions, in io.Reader, out, errw io.Writer) error {
	data, err := os.ReadFile(o.resume)
	if err != nil {
		return fmt.Errorf("read the session file: %w", err)
	}
	if t, err := interact.ModuleOf(data); err == nil && t != nil {
		return resumeProject(ctx, g, o, data, t, in, out, errw)
	}
	if o.write || o.proj.set() {
		return usagef("run: --write, --project, --python and --mask go with --spec FILE::NAME or --resume of a session on one")
	}
	eng, err := openEngine(ctx, g, 0)
	if err != nil {
		return err
	}
	defer eng.Close()
	conv, err := interact.LoadFor(data, eng.runners(ctx, g))
	if err != nil {
		return fmt.Errorf("%w: %s is not a session file that run kept: %w", interact.ErrBadSource, o.resume, err)
	}
	fmt.Fprintf(errw, "ticoder: resuming %s with %s\n", o.resume, plural(len(conv.State("").History), "answer"))
	return askAndWrite(ctx, o, conv, o.resume, in, out, errw)
}

// askAndWrite asks the questions of conv, keeping the answers in a session
// file (sessionPath, or a new one when empty), and writes the chosen code
// and tests.
func askAndWrite(ctx context.Context, o *runOptions, conv *interact.Conversation, sessionPath string, in io.Reader, out, errw io.Writer) error {
	names, err := conv.Export(ctx, -1, false)
	if err != nil && !errors.Is(err, interact.ErrNoCandidate) {
		return err
	}
	var dest *runDestination
	if !o.write {
		if dest, err = o.destination(names); err != nil {
			return err
		}
	}
	keep := &sessionFile{path: sessionPath, name: strings.TrimSuffix(names.CodeFile, filepath.Ext(names.CodeFile))}
	var res ui.Result
	stdin := &eofReader{r: in}
	if isTerminal(in) && isTerminal(out) && !o.plain {
		res, err = ui.RunTUI(ctx, conv, ui.TUIOptions{NoColor: o.noColor, Changed: keep.save})
	} else {
		res, err = ui.PlainOptions{Changed: keep.save}.Run(ctx, conv, stdin, out)
	}
	if err != nil || res.Aborted || res.Candidate < 0 {
		keep.save(conv)
		if hint := keep.hint(conv); hint != "" {
			fmt.Fprintln(errw, "ticoder:", hint)
		}
	}
	switch {
	case err != nil:
		return err
	case res.Interrupted:
		return fmt.Errorf("nothing written: %w", context.Canceled)
	case res.Aborted || res.Candidate < 0:
		return errNothingWritten
	}
	if stdin.ended {
		answers := len(conv.State("").History)
		if answers == 0 {
			return errNoAnswers
		}
		fmt.Fprintf(errw, "ticoder: stdin ended after %s, before a candidate was chosen: writing the top-ranked one\n", plural(answers, "answer"))
	}
	if o.write {
		if err := writeInPlace(ctx, o.project, conv, res.Candidate, out); err != nil {
			return err
		}
		keep.remove()
		return nil
	}
	codePath, testPath, err := dest.paths(names)
	if err != nil {
		return err
	}
	if err := writeExport(ctx, conv, res.Candidate, codePath, testPath, out); err != nil {
		return err
	}
	keep.remove()
	return nil
}

// errNothingWritten: the user quit without choosing a candidate, or none
// remained.
var errNothingWritten = errors.New("nothing written: no candidate was chosen")

// errNoAnswers: stdin ended before the first answer, so nobody approved
// anything.
var errNoAnswers = errors.New("stdin ended before the first answer, so nothing was approved and nothing is written: " +
	"answer in a terminal, or give one answer per line (y, n, d; an empty line at the end takes the top candidate), " +
	`e.g. printf 'y\nn\ny\n\n' | ticoder run --demo`)

// eofReader is a reader that notes when its reader ends.
type eofReader struct {
	r     io.Reader
	ended bool
}

// Read reads from the underlying reader and notes io.EOF.
func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if errors.Is(err, io.EOF) {
		e.ended = true
	}
	return n, err
}

// writeExport writes the chosen code and the approved tests, checked in the
// sandbox, and says what it wrote.
func writeExport(ctx context.Context, conv *interact.Conversation, candidate int, codePath, testPath string, out io.Writer) error {
	ex, err := conv.Export(ctx, candidate, true)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(codePath), 0o755); err != nil {
		return fmt.Errorf("create the output directory: %w", err)
	}
	if err := os.WriteFile(codePath, []byte(ex.Code), 0o644); err != nil {
		return fmt.Errorf("write the code: %w", err)
	}
	if err := os.WriteFile(testPath, []byte(ex.Tests), 0o644); err != nil {
		return fmt.Errorf("write the tests: %w", err)
	}
	if ex.PatchFile != "" {
		patchPath := filepath.Join(filepath.Dir(codePath), ex.PatchFile)
		if err := os.WriteFile(patchPath, []byte(ex.Patch), 0o644); err != nil {
			return fmt.Errorf("write the patch: %w", err)
		}
		fmt.Fprintf(out, "\nWrote %s, %s and %s (%s).\n", codePath, patchPath, testPath, approvedLine(ex))
		fmt.Fprintf(out, "Apply it in your project with: git apply %s (or patch -p1 < %s); the tests import %s.\n", patchPath, patchPath, ex.Module)
	} else {
		fmt.Fprintf(out, "\nWrote %s and %s (%s).\n", codePath, testPath, approvedLine(ex))
	}
	if !ex.Checked {
		fmt.Fprintf(out, "Not checked in the sandbox: %s. Run them with: cd %s && %s%s\n", ex.Unchecked, filepath.Dir(testPath), ex.Command, pytestNote(ex.Command))
		return nil
	}
	if !ex.Passed && conv.Session().Conflict() > 0 {
		// No candidate agrees with all the answers: the tests the code
		// fails are what it does not yet do, and the user chose to keep it.
		fmt.Fprintf(out, "Checked in the sandbox: the code does not yet pass %s (no candidate agrees with all your answers): %s\n",
			plural(len(ex.Failures), "approved test"), strings.Join(ex.Failures, "; "))
		return nil
	}
	if !ex.Passed {
		return fmt.Errorf("the approved tests fail against the chosen code: %s", strings.Join(ex.Failures, "; "))
	}
	if ex.TestCount > 0 {
		what := fmt.Sprintf("all %d tests pass", ex.TestCount)
		if ex.TestCount == 1 {
			what = "the test passes"
		}
		fmt.Fprintf(out, "Checked in the sandbox: %s against the code. Run them with: cd %s && %s%s\n",
			what, filepath.Dir(testPath), ex.Command, pytestNote(ex.Command))
	}
	return nil
}

func approvedLine(ex api.Export) string {
	switch ex.TestCount {
	case 0:
		return "no approved test"
	case 1:
		return "1 approved test"
	}
	return fmt.Sprintf("%d approved tests", ex.TestCount)
}

// pytestNote adds, to a python3 command that runs exported tests, how to
// run them with pytest instead.
func pytestNote(command string) string {
	file, ok := strings.CutPrefix(command, "python3 ")
	if !ok {
		return ""
	}
	return " (or, with pytest installed: python3 -m pytest " + file + ")"
}
