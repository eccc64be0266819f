package ui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
)

const plainHelp = `Answer each question:
  y  yes, the test matches what you want        n  no, it does not
  d  don't know / the input is invalid          o VALUE  no, the right value is VALUE (output mode)
  u  undo the last answer                       q  stop asking and choose the code`

// command is one line typed in plain mode.
type command struct {
	verb  string // pass, fail, undefined, output, undo, stop, help
	value string
}

// parseCommand reads a line typed in plain mode.
func parseCommand(line string) (command, error) {
	line = strings.TrimSpace(line)
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	verbs := map[string]string{
		"y": "pass", "yes": "pass", "pass": "pass", "p": "pass",
		"n": "fail", "no": "fail", "fail": "fail", "f": "fail",
		"d": "undefined", "dk": "undefined", "undefined": "undefined", "undef": "undefined", "invalid": "undefined",
		"o": "output", "output": "output",
		"u": "undo", "undo": "undo",
		"q": "stop", "quit": "stop", "stop": "stop", "done": "stop",
		"h": "help", "help": "help", "?": "help",
	}
	verb, ok := verbs[strings.ToLower(word)]
	switch {
	case !ok:
		return command{}, fmt.Errorf("cannot read %q: type y, n, d, o VALUE, u or q (h for help)", line)
	case verb == "output" && rest == "":
		return command{}, fmt.Errorf("give the right value after o, e.g. `o False` or `o [1, 2]`")
	case verb != "output" && rest != "":
		return command{}, fmt.Errorf("cannot read %q: %s takes no value", line, word)
	}
	return command{verb: verb, value: rest}, nil
}

// RunPlain asks the questions with plain prompts on in and out, one answer
// per line; end of input stops the questions. It then shows the ranked
// candidates and reads which one to export (a number; empty or end of input
// choose the first).
func RunPlain(ctx context.Context, c *interact.Conversation, in io.Reader, out io.Writer) (Result, error) {
	return PlainOptions{}.Run(ctx, c, in, out)
}

// PlainOptions configure the plain prompts.
type PlainOptions struct {
	// Changed, if not nil, is called after each change to the conversation
	// (an answer, an undo, the end of the questions): the caller can save
	// the conversation so that the answers survive.
	Changed func(*interact.Conversation)
}

// Run is RunPlain with options.
func (o PlainOptions) Run(ctx context.Context, c *interact.Conversation, in io.Reader, out io.Writer) (Result, error) {
	changed := func() {
		if o.Changed != nil {
			o.Changed(c)
		}
	}
	read, stop := readLines(ctx, in)
	defer stop()
	interrupted := func() (Result, error) {
		fmt.Fprintln(out)
		return Result{Candidate: -1, Aborted: true, Interrupted: true}, ctx.Err()
	}
	t := c.Task()
	title := t.Name
	if t.Title != "" {
		title += " — " + t.Title
	}
	fmt.Fprintf(out, "Task: %s\n\n%s\n\n%s\n%s\n", title, strings.TrimRight(t.Stub, "\n"), countsLine(c.State("")), plainHelp)
	for {
		s := c.State("")
		if s.Done {
			fmt.Fprintf(out, "\n%s\n", s.StopMessage)
			if s.ConflictMessage != "" {
				fmt.Fprintf(out, "%s\n", s.ConflictMessage)
			}
			res, again, err := plainChoose(c, s, read, out)
			if ctx.Err() != nil {
				return interrupted()
			}
			if err != nil || !again {
				return res, err
			}
			changed()
			continue
		}
		q := s.Question
		fmt.Fprintf(out, "\nQuestion %d: %s\n> ", q.Number, q.Prompt)
		line, ok := read()
		if ctx.Err() != nil {
			return interrupted()
		}
		if !ok {
			fmt.Fprintln(out)
			c.Stop()
			changed()
			continue
		}
		cmd, err := parseCommand(line)
		if err != nil {
			fmt.Fprintf(out, "! %v\n", err)
			continue
		}
		err = plainApply(ctx, c, q, cmd, out)
		changed()
		if err != nil {
			if ctx.Err() != nil {
				return Result{Aborted: true, Interrupted: true}, ctx.Err()
			}
			fmt.Fprintf(out, "! %s\n", message(err))
		}
	}
}

// readLines reads lines from in, one when asked, in the background, so
// that a cancelled ctx (Ctrl-C) ends a read that waits for the user; read
// reports false at the end of the input or once ctx is done. Nothing is read
// ahead of what was asked for. stop ends the reader.
func readLines(ctx context.Context, in io.Reader) (read func() (string, bool), stop func()) {
	type line struct {
		text string
		ok   bool
	}
	ask := make(chan struct{})
	lines := make(chan line, 1)
	go func() {
		r := bufio.NewScanner(in)
		r.Buffer(make([]byte, 64<<10), 1<<20)
		for range ask {
			ok := r.Scan()
			lines <- line{r.Text(), ok}
			if !ok {
				return
			}
		}
	}()
	ended := false
	read = func() (string, bool) {
		if ended {
			return "", false
		}
		select {
		case ask <- struct{}{}:
		case <-ctx.Done():
			return "", false
		}
		select {
		case l := <-lines:
			ended = !l.ok
			return l.text, l.ok
		case <-ctx.Done():
			return "", false
		}
	}
	return read, func() { close(ask) }
}

// plainApply applies one command to the pending question q.
func plainApply(ctx context.Context, c *interact.Conversation, q *api.Question, cmd command, out io.Writer) error {
	switch cmd.verb {
	case "help":
		fmt.Fprintln(out, plainHelp)
		return nil
	case "undo":
		if err := c.Undo(); err != nil {
			return err
		}
		fmt.Fprintf(out, "Undone. %s\n", countsLine(c.State("")))
		return nil
	case "stop":
		c.Stop()
		return nil
	}
	if err := c.Answer(ctx, q.Test, cmd.verb, cmd.value); err != nil {
		return err
	}
	s := c.State("")
	fmt.Fprintf(out, "→ %s\n", countsLine(s))
	if s.ConflictMessage != "" && !s.Done {
		fmt.Fprintf(out, "%s\n", s.ConflictMessage)
	}
	return nil
}

// exportPrompt asks which of n candidates to export.
func exportPrompt(n int) string {
	if n == 1 {
		return "Export the candidate? [Enter or 1 to write it, u to undo, q to quit without writing]"
	}
	return fmt.Sprintf("Export which candidate? [1-%d, Enter for 1, u to undo, q to quit without writing]", n)
}

// plainChoose shows the ranked candidates and reads the one to export. It
// reports again when the user undid an answer and the questions resume.
func plainChoose(c *interact.Conversation, s api.Session, read func() (string, bool), out io.Writer) (Result, bool, error) {
	if len(s.Candidates) == 0 {
		fmt.Fprintln(out, "There is no candidate to choose from. Type u to undo the last answer, or press Enter to give up.")
		for {
			fmt.Fprint(out, "> ")
			line, ok := read()
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "u", "undo":
				if err := c.Undo(); err != nil {
					fmt.Fprintf(out, "! %v\n", err)
					continue
				}
				fmt.Fprintf(out, "Undone. %s\n", countsLine(c.State("")))
				return Result{}, true, nil
			case "", "q", "quit":
				if !ok {
					fmt.Fprintln(out)
				}
				return Result{Candidate: -1, Aborted: true}, false, nil
			}
			if !ok {
				fmt.Fprintln(out)
				return Result{Candidate: -1, Aborted: true}, false, nil
			}
			fmt.Fprintf(out, "! cannot read %q: type u to undo the last answer, or press Enter to give up\n", strings.TrimSpace(line))
		}
	}
	fmt.Fprintf(out, "\nRanked candidates — %s:\n", countsLine(s))
	for i, cand := range s.Candidates {
		if i == 5 {
			fmt.Fprintf(out, "\n… and %d more\n", len(s.Candidates)-5)
			break
		}
		fmt.Fprintf(out, "\n[%d] %s\n%s\n", i+1, candidateHead(s.Candidates, i), strings.TrimRight(cand.Program, "\n"))
	}
	if len(s.Candidates) > 1 {
		fmt.Fprintf(out, "\nHow the top two differ:\n%s", renderDiff(s.Candidates, false))
	}
	for {
		fmt.Fprintf(out, "\n%s\n> ", exportPrompt(len(s.Candidates)))
		line, ok := read()
		line = strings.TrimSpace(line)
		if !ok || line == "" {
			if !ok {
				fmt.Fprintln(out)
			}
			return Result{Candidate: s.Candidates[0].Index}, false, nil
		}
		if line == "u" || line == "undo" {
			if err := c.Undo(); err != nil {
				fmt.Fprintf(out, "! %v\n", err)
				continue
			}
			fmt.Fprintf(out, "Undone. %s\n", countsLine(c.State("")))
			return Result{}, true, nil
		}
		if line == "q" || line == "quit" {
			if len(s.History) == 0 {
				return Result{Candidate: -1, Aborted: true}, false, nil
			}
			fmt.Fprintf(out, "Quit without writing the code? Your %s will be kept in a session file you can resume. [y/N]\n> ", plural(len(s.History), "answer"))
			if yes, _ := read(); strings.EqualFold(strings.TrimSpace(yes), "y") || strings.EqualFold(strings.TrimSpace(yes), "yes") {
				return Result{Candidate: -1, Aborted: true}, false, nil
			}
			continue
		}
		n, err := strconv.Atoi(line)
		if err != nil || n < 1 || n > len(s.Candidates) {
			fmt.Fprintf(out, "! type a number from 1 to %d\n", len(s.Candidates))
			continue
		}
		return Result{Candidate: s.Candidates[n-1].Index}, false, nil
	}
}

// message is err as the terminal shows it, with the advice of `ticoder run`
// (its flags) where the shared packages give none.
func message(err error) string {
	if errors.Is(err, interact.ErrNeedsOutputMode) {
		return err.Error() + " (run with --mode output to give outputs)"
	}
	return err.Error()
}
