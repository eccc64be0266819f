package interact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// ErrFinished is returned when an answer comes after the questions ended.
var ErrFinished = errors.New("the questions are over")

// StopByUser is the api.Session.Stop of a session the user stopped.
const StopByUser = "stopped"

// Conversation is one interactive session as a front end drives it. It is
// not safe for concurrent use; the web server holds a lock per session.
type Conversation struct {
	task    api.Task
	lang    lang.Interactive
	sess    *session.Session
	runner  execute.Runner
	stopped bool
	// regen is how the session may ask for new candidates (nil: never);
	// builder and rep do it (see UseBuilder).
	regen   *Regeneration
	builder *Builder
	rep     progress.Reporter
	// module is the function inside a project's module that the session
	// writes; nil for every other source.
	module *ModuleTarget
}

// Start begins a conversation on a prepared session. r runs the programs
// of the task's language and the sandboxed checks (output values, export).
func Start(p *Prepared, r execute.Runner) (*Conversation, error) {
	l, err := languageOf(p.Task.Language)
	if err != nil {
		return nil, err
	}
	s, err := session.New(p.Spec, comparer(l, r))
	if err != nil {
		return nil, err
	}
	c := &Conversation{task: p.Task, lang: l, sess: s, runner: r, module: p.Module}
	if p.Regeneration != nil {
		regen := *p.Regeneration
		c.regen = &regen
	}
	return c, nil
}

// record is the stored form of a Conversation.
type record struct {
	Task         api.Task        `json:"task"`
	Session      json.RawMessage `json:"session"`
	Stopped      bool            `json:"stopped,omitempty"`
	Regeneration *Regeneration   `json:"regeneration,omitempty"`
	Module       *ModuleTarget   `json:"module,omitempty"`
}

// MarshalJSON encodes everything needed to resume the conversation.
func (c *Conversation) MarshalJSON() ([]byte, error) {
	s, err := c.sess.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return json.Marshal(record{Task: c.task, Session: s, Stopped: c.stopped, Regeneration: c.regen, Module: c.module})
}

// Load resumes a conversation encoded with MarshalJSON; r runs the
// programs of its language.
func Load(data []byte, r execute.Runner) (*Conversation, error) {
	return LoadFor(data, func(string) execute.Runner { return r })
}

// ModuleOf returns the function inside a project's module that a
// conversation encoded with MarshalJSON works on; nil for every other
// session.
func ModuleOf(data []byte) (*ModuleTarget, error) {
	var rec struct {
		Module *ModuleTarget `json:"module"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("load conversation: %w", err)
	}
	return rec.Module, nil
}

// LoadFor resumes a conversation encoded with MarshalJSON, on the runner
// runners returns for its language.
func LoadFor(data []byte, runners func(language string) execute.Runner) (*Conversation, error) {
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("load conversation: %w", err)
	}
	l, err := languageOf(rec.Task.Language)
	if err != nil {
		return nil, fmt.Errorf("load conversation: %w", err)
	}
	r := runners(rec.Task.Language)
	s, err := session.Load(rec.Session, comparer(l, r))
	if err != nil {
		return nil, err
	}
	return &Conversation{task: rec.Task, lang: l, sess: s, runner: r, stopped: rec.Stopped, regen: rec.Regeneration, module: rec.Module}, nil
}

// Task returns what the code is for.
func (c *Conversation) Task() api.Task { return c.task }

// Session returns the underlying session.
func (c *Conversation) Session() *session.Session { return c.sess }

// Mode returns the session's mode.
func (c *Conversation) Mode() rank.Mode { return c.sess.Spec().Mode }

// Done reports whether no more questions will be asked.
func (c *Conversation) Done() bool { return c.stopped || c.sess.Status() != session.Running }

// Question returns the pending question, or false when the session is done.
func (c *Conversation) Question() (api.Question, bool) {
	if c.stopped {
		return api.Question{}, false
	}
	q, ok := c.sess.Next()
	if !ok {
		return api.Question{}, false
	}
	expected := c.show(q.Expected)
	choices := make([]string, len(q.Choices))
	for i, v := range q.Choices {
		choices[i] = c.show(v)
	}
	if q.Choices == nil {
		choices = nil
	}
	out := api.Question{
		Number: q.Number, Test: q.Test, Code: q.Code, Input: q.Input, Expected: expected,
		Prompt:      c.prompt(q.Code, q.Input, expected),
		CanOutput:   c.Mode() == rank.Output && q.Input != "",
		Synthesized: q.Synthesized, Choices: choices,
	}
	if q.Synthesized && out.CanOutput && len(q.Choices) > 1 {
		out.Prompt += notePrefix + q.Input + " return? the candidates return " + strings.Join(choices, ", ") + ")"
	}
	return out, true
}

// notePrefix starts the note in words that ends a synthesized question's
// prompt in output mode.
const notePrefix = "\n(what should "

// SplitPrompt splits a question's prompt into its code and the note in
// words after it ("" when there is none), so that front ends highlight
// only the code.
func SplitPrompt(prompt string) (code, note string) {
	if i := strings.LastIndex(prompt, notePrefix); i >= 0 {
		return prompt[:i], prompt[i+1:]
	}
	return prompt, ""
}

// show renders a value in the task's language.
func (c *Conversation) show(value string) string {
	if value == "" {
		return ""
	}
	return c.lang.ShowValue(c.task.Stub, c.task.EntryPoint, value)
}

// prompt is Prompt with the question in the task's language.
func (c *Conversation) prompt(code, input, expected string) string {
	if input == "" {
		return Prompt(code, input, expected)
	}
	setup := ""
	if i := strings.LastIndex(code, "\n"); i >= 0 {
		setup = code[:i+1]
	}
	return setup + c.lang.Question(input, expected)
}

// Prompt renders a test as the question shown to the user:
// `f(1) == 2 ?` for a CALL == EXPECTED test, else the assertion's
// condition (after any setup lines) followed by " ?".
func Prompt(code, input, expected string) string {
	if input != "" {
		setup := ""
		if i := strings.LastIndex(code, "\n"); i >= 0 {
			setup = code[:i+1]
		}
		return setup + input + " == " + expected + " ?"
	}
	lines := strings.Split(strings.TrimRight(code, "\n"), "\n")
	last := lines[len(lines)-1]
	if rest, ok := strings.CutPrefix(strings.TrimSpace(last), "assert "); ok {
		lines[len(lines)-1] = rest
	}
	return strings.Join(lines, "\n") + " ?"
}

// counts returns the counts of a set of candidates.
func (c *Conversation) counts(set []int) api.Counts {
	n := api.Counts{Programs: len(set), Classes: c.sess.Outcomes().NumClasses(set)}
	for _, i := range set {
		n.Samples += c.sess.Outcomes().Count(i)
	}
	return n
}

// State returns the conversation's state in the web API's form.
func (c *Conversation) State(id string) api.Session {
	st := api.Session{ID: id, Task: c.task, Mode: c.Mode().String(), History: []api.Answered{}}
	if q, ok := c.Question(); ok {
		st.Question = &q
	}
	st.Done = st.Question == nil
	if st.Done {
		st.Stop, st.StopMessage = c.stopReason()
	}
	all := make([]int, len(c.sess.Spec().Candidates))
	for i := range all {
		all[i] = i
	}
	st.Total = c.counts(all)
	alive := c.sess.Alive()
	st.Remaining = c.counts(alive)
	hist := c.sess.History()
	for i, h := range hist {
		after := alive
		if i+1 < len(hist) {
			after = hist[i+1].Before
		}
		st.History = append(st.History, api.Answered{
			Number: i + 1, Test: h.Test, Code: c.lang.ShowTest(c.task.Stub, c.task.EntryPoint, c.sess.Shown(h)), Verdict: h.Answer.Verdict.String(),
			Value: h.Answer.Value, Remaining: c.counts(after).Samples,
		})
	}
	st.Candidates = c.Candidates()
	st.Conflict = c.sess.Conflict()
	if c.regen != nil {
		st.Regenerated = c.regen.Done
	}
	remaining := 0
	for _, cand := range st.Candidates {
		if cand.Crashes == 0 {
			remaining++
		}
	}
	st.ConflictMessage = c.conflictMessage(remaining)
	return st
}

// conflictMessage says in words, for shown remaining behaviour classes,
// that no candidate agrees with all the answers and what was done about
// it; or, right after a round of new candidates that some agree with,
// that round; else "".
func (c *Conversation) conflictMessage(shown int) string {
	conflict, asked := c.sess.Conflict(), c.sess.Asked()
	fresh := c.regen != nil && c.regen.Done > 0 && c.regen.Last == asked
	if conflict == 0 {
		if fresh && c.regen.LastAdded > 0 {
			return fmt.Sprintf("No candidate agreed with all your answers, so the model wrote %s with your approved tests; %s all your answers.",
				plural(c.regen.LastAdded, "new candidate"), shownAgree(shown))
		}
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "No candidate agrees with all your answers: %s the most of them, %d of %d. "+
		"Your answers are kept: an approved test the code does not yet pass stays in the test file.",
		shownAgree(shown), asked-conflict, asked)
	_, more := c.regenerator()
	switch {
	case c.regen != nil && c.regen.Failed != "":
		fmt.Fprintf(&b, " Asking the model for new candidates failed (%s).", c.regen.Failed)
	case c.regen != nil && c.regen.Done > 0:
		fmt.Fprintf(&b, " The model was asked for new candidates with your approved tests (%s, %s so far); none agrees with all your answers.",
			plural(c.regen.Done, "round"), plural(c.regen.Added, "new candidate"))
	}
	if more && len(c.mustPass()) > 0 {
		b.WriteString(" After your next answer the model will be asked for new candidates with your approved tests.")
		return b.String()
	}
	b.WriteString(" Undo an answer, or keep the closest candidate.")
	return b.String()
}

// shownAgree is "the candidate shown agrees with" or "the N candidates
// shown agree with".
func shownAgree(n int) string {
	if n == 1 {
		return "the candidate shown agrees with"
	}
	return fmt.Sprintf("the %d candidates shown agree with", n)
}

// plural returns "1 thing" or "N things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// stopReason names and explains why the questions ended.
func (c *Conversation) stopReason() (string, string) {
	if c.stopped {
		return StopByUser, "You ended the questions."
	}
	stop := c.sess.Status()
	switch {
	case len(c.sess.Alive()) == 0:
		return stop.String(), "There is no candidate to choose from. Undo an answer."
	case stop == session.MaxQuestions:
		return stop.String(), fmt.Sprintf("You answered the maximum number of questions (%d).", c.sess.Spec().MaxQuestions)
	case stop == session.OneClass:
		return stop.String(), "All remaining candidates behave the same on every test."
	case stop == session.NoSplit:
		return stop.String(), "No remaining test tells the remaining candidates apart."
	}
	return stop.String(), ""
}

// Candidates returns the remaining behaviour classes, best first, then the
// fallbacks' (api.Candidate.Crashes).
func (c *Conversation) Candidates() []api.Candidate {
	sugg := c.sess.Suggestions()
	out := make([]api.Candidate, len(sugg))
	rankOf := map[int]int{}
	for i, s := range sugg {
		r, ok := rankOf[s.Tie]
		if !ok {
			r = i + 1
			rankOf[s.Tie] = r
		}
		out[i] = api.Candidate{Rank: r, Index: s.Candidate, Program: s.Program, Samples: s.Count, Programs: s.Members, Score: s.Score, Crashes: s.Crashes}
		if c.module != nil {
			// A person reads the function, not the whole module it runs in.
			out[i].Program = c.module.FunctionText(s.Program)
			out[i].Yours = s.Candidate == c.module.Yours
		}
	}
	return out
}

// Runner returns the runner of the session's programs.
func (c *Conversation) Runner() execute.Runner { return c.runner }

// Module returns the function inside a project's module that the session
// writes; nil for every other source.
func (c *Conversation) Module() *ModuleTarget { return c.module }

// Answer answers question test with verdict (pass, fail, undefined or
// output, or their one-letter forms) and, for output, the right value as a
// Python literal (see CheckValue: code is refused, never run). On any error
// nothing changes. When the answer leaves no candidate that agrees with all
// the answers, the model is asked for new ones with the approved tests in
// the prompt (see UseBuilder), within the session's rounds; a round that
// fails is said in the state (api.Session.ConflictMessage), not returned.
func (c *Conversation) Answer(ctx context.Context, test int, verdict, value string) error {
	var v session.Verdict
	if err := v.UnmarshalText([]byte(strings.ToLower(strings.TrimSpace(verdict)))); err != nil {
		a, perr := session.ParseAnswer(verdict)
		if perr != nil {
			return fmt.Errorf("%w: unknown answer %q; answer pass, fail, undefined or output", session.ErrBadAnswer, verdict)
		}
		v = a.Verdict
		if value == "" {
			value = a.Value
		}
	}
	q, ok := c.Question()
	if !ok {
		msg, _ := c.stopReason()
		return fmt.Errorf("%w (%s); undo to change an answer, or take the result", ErrFinished, msg)
	}
	if test != q.Test {
		return fmt.Errorf("%w: question %d is no longer open or was never asked; the current question is #%d (test id %d): %s", session.ErrNotAsked, test, q.Number, q.Test, q.Prompt)
	}
	a := session.Answer{Verdict: v}
	if v == session.Output {
		if !q.CanOutput {
			if c.Mode() != rank.Output {
				return fmt.Errorf("%w: %w; answer yes (y), no (n) or don't know (d)", session.ErrBadAnswer, ErrNeedsOutputMode)
			}
			return fmt.Errorf("%w: this test is not of the form `assert CALL == VALUE`; answer yes (y), no (n) or don't know (d)", session.ErrBadAnswer)
		}
		expr, err := c.lang.ReadValue(ctx, c.runner, c.task.Stub, c.task.EntryPoint, strings.TrimSpace(value))
		if err != nil {
			return err
		}
		a.Value = expr
	}
	if err := c.sess.Answer(ctx, test, a); err != nil {
		return err
	}
	c.regenerate(ctx)
	return nil
}

// Undo resumes a stopped conversation, or else takes back the last answer.
func (c *Conversation) Undo() error {
	if c.stopped {
		c.stopped = false
		return nil
	}
	if err := c.sess.Undo(); err != nil {
		return fmt.Errorf("%w: no answer to take back yet", err)
	}
	return nil
}

// Stop ends the questions; Undo resumes them.
func (c *Conversation) Stop() { c.stopped = true }
